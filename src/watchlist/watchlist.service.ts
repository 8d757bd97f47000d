import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthenticatedUser, DataOwner } from '../auth/authenticated-user';
import { distinctNumbers, RosterEntry, RosterHolder } from '../batches/roster';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { LookupService } from '../lookups/lookup.service';
import { QuotaService } from '../quota/quota.service';
import { ENTRY_COLUMNS, ENTRY_SOURCE, WatchEntryRow, watchEntryView, WatchEntryView } from './watch-entry-view';
import { WATCHLIST_COUNT, WatchlistCount, watchlistHasRoom } from './watchlist-room';
import type { WatchlistQuery } from './dto/watchlist-query.dto';

/**
 * Watchlists (API side). Adding a number charges it like a verification (free when already
 * counted this month) and makes its shared licence state due at once when it is new, so the
 * first re-check records the baseline that later changes are measured against. A user watches at most its cap of
 * numbers (WATCH_MAX_ENTRIES_PER_USER, or its own): past it, nothing is added, updated or charged.
 */
@Injectable()
export class WatchlistService {
  private readonly maxEntries: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quota: QuotaService,
    private readonly lookups: LookupService,
    private readonly clock: Clock,
    private readonly holderData: HolderDataProtection,
    config: AppConfig,
  ) {
    this.maxEntries = config.get('WATCH_MAX_ENTRIES_PER_USER');
  }

  /**
   * Adds or updates one entry; `created` is false when the number was already watched. A holder or followSuccessor
   * given replaces the stored one; the date of birth is stored only sealed.
   */
  async watch(
    user: AuthenticatedUser,
    licenceNumber: string,
    reference: string | null,
    successor: { holder?: RosterHolder; followSuccessor?: boolean } = {},
  ): Promise<{ created: boolean; entry: WatchEntryView }> {
    const [{ watched }] = await this.dataSource.query<{ watched: boolean }[]>(
      'SELECT EXISTS (SELECT 1 FROM watch_entries WHERE user_id = $1 AND licence_number = $2) AS watched',
      [user.userId, licenceNumber],
    );
    if (!watched) await this.ensureRoom(this.dataSource, user.userId, [licenceNumber]);
    if (!watched) await this.lookups.admitWatch(user.userId, 1);
    const charges = watched ? [] : [await this.quota.chargeOnce(user, licenceNumber)];
    const inserted = await this.quota.refundIfFails(charges, () => this.insertEntries(user.userId, [{ licenceNumber, reference }]));
    const created = inserted === 1;
    const { holder, followSuccessor } = successor;
    if (holder !== undefined || followSuccessor !== undefined) {
      await this.dataSource.query(
        `UPDATE watch_entries SET
           holder = CASE WHEN $3 THEN $4::jsonb ELSE holder END,
           date_of_birth_sealed = CASE WHEN $3 THEN $5 ELSE date_of_birth_sealed END,
           follow_successor = coalesce($6, follow_successor)
         WHERE user_id = $1 AND licence_number = $2`,
        [
          user.userId,
          licenceNumber,
          holder !== undefined,
          holder ? JSON.stringify({ firstName: holder.firstName, surname: holder.surname }) : null,
          holder?.dateOfBirth === undefined ? null : this.holderData.seal(holder.dateOfBirth, holderDataRow.watchEntry(user.userId, licenceNumber)),
          followSuccessor ?? null,
        ],
      );
    }
    return { created, entry: (await this.entries(user, [licenceNumber]))[0] };
  }

  /** Adds up to 1,000 entries, charging the new numbers all or nothing (429 adds nothing). */
  async watchMany(user: AuthenticatedUser, entries: RosterEntry[]): Promise<{ added: number; updated: number }> {
    // The last row for a number wins, as if the rows had been PUT one after another.
    const byNumber = new Map(entries.map((entry) => [entry.licenceNumber, entry]));
    const numbers = distinctNumbers(entries);
    const watched = await this.dataSource.query<{ licence_number: string }[]>(
      'SELECT licence_number FROM watch_entries WHERE user_id = $1 AND licence_number = ANY ($2)',
      [user.userId, numbers],
    );
    const already = new Set(watched.map((row) => row.licence_number));
    const newNumbers = numbers.filter((number) => !already.has(number));
    if (newNumbers.length > 0) await this.ensureRoom(this.dataSource, user.userId, newNumbers);
    if (newNumbers.length > 0) await this.lookups.admitWatch(user.userId, newNumbers.length);
    const charges = await this.quota.chargeMany(user, newNumbers);
    const added = await this.quota.refundIfFails(charges, () => this.insertEntries(user.userId, [...byNumber.values()]));
    return { added, updated: byNumber.size - added };
  }

  /**
   * Removes an entry; when it was the number's last, the number's state starts its retention. The state's row lock
   * makes concurrent unwatches and watches of one number take turns, so the last one out always sees it is last.
   */
  async unwatch(userId: string, licenceNumber: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT 1 FROM licence_states WHERE licence_number = $1 FOR UPDATE', [licenceNumber]);
      const [, affected] = await manager.query<[unknown, number]>('DELETE FROM watch_entries WHERE user_id = $1 AND licence_number = $2', [
        userId,
        licenceNumber,
      ]);
      await manager.query(
        `UPDATE licence_states s SET unwatched_since = $2
         WHERE s.licence_number = $1 AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.licence_number = s.licence_number)`,
        [licenceNumber, this.clock.now()],
      );
      return affected;
    });
    if (removed === 0) throw new ApiError('WATCH_NOT_FOUND');
  }

  async list({ userId, mode }: DataOwner, query: WatchlistQuery): Promise<{ items: WatchEntryView[]; nextCursor: string | null }> {
    const now = this.clock.now();
    const rows = await this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS}
       FROM ${ENTRY_SOURCE}
       WHERE w.user_id = $1 AND ($2::text IS NULL OR w.licence_number > $2)
         AND ($3::text IS NULL OR upper(CASE WHEN e.result IS NULL THEN 'UNCHECKED'
                                             WHEN e.result->>'status' = 'FOUND' THEN e.result->'licence'->>'status'
                                             ELSE e.result->>'status' END) = $3)
         AND ($4::int IS NULL OR (e.result->>'status' = 'FOUND'
              AND (e.result->'licence'->>'expiryDate')::date BETWEEN $5::date AND $5::date + $4::int))
       ORDER BY w.licence_number LIMIT $6`,
      [userId, query.after, query.status, query.expiringWithinDays, now.toISOString().slice(0, 10), query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((row) => watchEntryView(row, now, mode)),
      nextCursor: rows.length > query.limit ? page[page.length - 1].licence_number : null,
    };
  }

  private async entries({ userId, mode }: DataOwner, numbers: string[]): Promise<WatchEntryView[]> {
    const rows = await this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_SOURCE}
       WHERE w.user_id = $1 AND w.licence_number = ANY ($2) ORDER BY w.licence_number`,
      [userId, numbers],
    );
    const now = this.clock.now();
    return rows.map((row) => watchEntryView(row, now, mode));
  }

  /**
   * WATCHLIST_FULL when the numbers not watched yet would take the user's watchlist past its cap. Asked once
   * before anything is charged (so a full watchlist is refused before the quota is asked), and again where the
   * entries are inserted, under the user's lock.
   */
  private async ensureRoom(runner: DataSource | EntityManager, userId: string, numbers: string[]): Promise<void> {
    const [count] = await runner.query<WatchlistCount[]>(WATCHLIST_COUNT, [userId, numbers]);
    if (!watchlistHasRoom(count, this.maxEntries)) throw new ApiError('WATCHLIST_FULL');
  }

  /**
   * Inserts or updates entries (and the numbers' shared states) in one transaction; returns how many were new.
   * WATCHLIST_FULL rolls it all back.
   */
  private async insertEntries(userId: string, entries: Pick<RosterEntry, 'licenceNumber' | 'reference'>[]): Promise<number> {
    const now = this.clock.now();
    const numbers = entries.map((entry) => entry.licenceNumber);
    return this.dataSource.transaction(async (manager) => {
      // The user's row lock makes its additions take turns, so concurrent ones never pass the cap together; the
      // count runs after it, in a statement of its own, so that it sees what the turn before committed. NO KEY
      // UPDATE: rows that merely reference the user (charges, a successor's entry) need not wait for it.
      await manager.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
      await this.ensureRoom(manager, userId, numbers);
      await manager.query(
        `INSERT INTO licence_states (licence_number, next_check_at)
         SELECT number, $2 FROM unnest($1::text[]) AS number ORDER BY number
         ON CONFLICT (licence_number) DO UPDATE SET unwatched_since = NULL WHERE licence_states.unwatched_since IS NOT NULL`,
        [numbers, now],
      );
      const rows = await manager.query<{ created: boolean }[]>(
        `INSERT INTO watch_entries (user_id, licence_number, reference, added_at)
         SELECT $1, number, reference, $4 FROM unnest($2::text[], $3::text[]) AS e(number, reference)
         ON CONFLICT (user_id, licence_number) DO UPDATE SET reference = excluded.reference
         RETURNING (xmax = 0) AS created`,
        [userId, numbers, entries.map((entry) => entry.reference), now],
      );
      return rows.filter((row) => row.created).length;
    });
  }
}
