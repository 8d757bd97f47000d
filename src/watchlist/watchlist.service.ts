import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { distinctNumbers, RosterEntry, RosterHolder } from '../batches/roster';
import { HolderDataProtection } from '../secrets/holder-data';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { QuotaService } from '../quota/quota.service';
import { WatchEntryRow, watchEntryView, WatchEntryView } from './watch-entry-view';
import type { WatchlistQuery } from './dto/watchlist-query.dto';

const ENTRY_COLUMNS = `w.licence_number, w.reference, w.added_at, w.state, w.paused_reason, s.result, s.checked_at, s.last_changed_at,
  w.successor_licence_number`;

/**
 * Watchlists (API side). Adding a number charges it like a verification (free when already
 * counted this month) and makes its shared licence state due at once when it is new, so the
 * first re-check records the baseline that later changes are measured against.
 */
@Injectable()
export class WatchlistService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quota: QuotaService,
    private readonly clock: Clock,
    private readonly holderData: HolderDataProtection,
  ) {}

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
    if (!watched) await this.quota.chargeOnce(user, licenceNumber);
    const created = (await this.insertEntries(user.userId, [{ licenceNumber, reference }])) === 1;
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
          holder?.dateOfBirth === undefined ? null : this.holderData.seal(holder.dateOfBirth),
          followSuccessor ?? null,
        ],
      );
    }
    return { created, entry: (await this.entries(user.userId, [licenceNumber]))[0] };
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
    await this.quota.chargeMany(user, numbers.filter((number) => !already.has(number)));
    const added = await this.insertEntries(user.userId, [...byNumber.values()]);
    return { added, updated: byNumber.size - added };
  }

  async unwatch(userId: string, licenceNumber: string): Promise<void> {
    const [, affected] = await this.dataSource.query<[unknown, number]>(
      'DELETE FROM watch_entries WHERE user_id = $1 AND licence_number = $2',
      [userId, licenceNumber],
    );
    if (affected === 0) throw new ApiError('WATCH_NOT_FOUND');
  }

  async list(userId: string, query: WatchlistQuery): Promise<{ items: WatchEntryView[]; nextCursor: string | null }> {
    const now = this.clock.now();
    const rows = await this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS}
       FROM watch_entries w JOIN licence_states s ON s.licence_number = w.licence_number
       WHERE w.user_id = $1 AND ($2::text IS NULL OR w.licence_number > $2)
         AND ($3::text IS NULL OR upper(CASE WHEN s.result IS NULL THEN 'UNCHECKED'
                                             WHEN s.result->>'status' = 'FOUND' THEN s.result->'licence'->>'status'
                                             ELSE s.result->>'status' END) = $3)
         AND ($4::int IS NULL OR (s.result->>'status' = 'FOUND'
              AND (s.result->'licence'->>'expiryDate')::date BETWEEN $5::date AND $5::date + $4::int))
       ORDER BY w.licence_number LIMIT $6`,
      [userId, query.after, query.status, query.expiringWithinDays, now.toISOString().slice(0, 10), query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((row) => watchEntryView(row, now)),
      nextCursor: rows.length > query.limit ? page[page.length - 1].licence_number : null,
    };
  }

  private async entries(userId: string, numbers: string[]): Promise<WatchEntryView[]> {
    const rows = await this.dataSource.query<WatchEntryRow[]>(
      `SELECT ${ENTRY_COLUMNS} FROM watch_entries w JOIN licence_states s ON s.licence_number = w.licence_number
       WHERE w.user_id = $1 AND w.licence_number = ANY ($2) ORDER BY w.licence_number`,
      [userId, numbers],
    );
    const now = this.clock.now();
    return rows.map((row) => watchEntryView(row, now));
  }

  /** Inserts or updates entries (and the numbers' shared states) in one transaction; returns how many were new. */
  private async insertEntries(userId: string, entries: Pick<RosterEntry, 'licenceNumber' | 'reference'>[]): Promise<number> {
    const now = this.clock.now();
    const numbers = entries.map((entry) => entry.licenceNumber);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO licence_states (licence_number, next_check_at)
         SELECT number, $2 FROM unnest($1::text[]) AS number ORDER BY number
         ON CONFLICT (licence_number) DO NOTHING`,
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
