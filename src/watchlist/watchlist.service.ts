import { ActivityLog, ActivityOrigin } from '../activity/activity-log';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuthenticatedUser, DataOwner } from '../auth/authenticated-user';
import { distinctNumbers, RosterEntry, RosterHolder } from '../common/roster';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { LookupService } from '../lookups/lookup.service';
import { QuotaService } from '../quota/quota.service';
import { watchEntryView, WatchEntryView } from './watch-entry-view';
import { WatchlistCount, watchlistHasRoom } from './watchlist-room';
import { WatchlistRepository } from './watchlist.repository';
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
    private readonly repository: WatchlistRepository,
    private readonly quota: QuotaService,
    private readonly lookups: LookupService,
    private readonly clock: Clock,
    private readonly holderData: HolderDataProtection,
    private readonly activity: ActivityLog,
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
    const watched = await this.repository.isWatched(user.userId, licenceNumber);
    if (!watched) this.ensureRoom(await this.repository.count(user.userId, [licenceNumber]));
    if (!watched) await this.lookups.admitWatch(user.userId, 1);
    const charges = watched ? [] : [await this.quota.chargeOnce(user, licenceNumber)];
    const inserted = await this.quota.refundIfFails(charges, () => this.insertEntries(user.userId, [{ licenceNumber, reference }]));
    const created = inserted === 1;
    const { holder, followSuccessor } = successor;
    if (holder !== undefined || followSuccessor !== undefined) {
      await this.repository.setSuccessorSettings(user.userId, licenceNumber, {
        replaceHolder: holder !== undefined,
        holder: holder ?? null,
        dateOfBirthSealed:
          holder?.dateOfBirth === undefined ? null : this.holderData.seal(holder.dateOfBirth, holderDataRow.watchEntry(user.userId, licenceNumber)),
        followSuccessor: followSuccessor ?? null,
      });
    }
    return { created, entry: (await this.entries(user, [licenceNumber]))[0] };
  }

  /** Adds up to 1,000 entries, charging the new numbers all or nothing (429 adds nothing); logged in their transaction. */
  async watchMany(origin: ActivityOrigin, user: AuthenticatedUser, entries: RosterEntry[]): Promise<{ added: number; updated: number }> {
    // The last row for a number wins, as if the rows had been PUT one after another.
    const byNumber = new Map(entries.map((entry) => [entry.licenceNumber, entry]));
    const numbers = distinctNumbers(entries);
    const already = await this.repository.watchedAmong(user.userId, numbers);
    const newNumbers = numbers.filter((number) => !already.has(number));
    if (newNumbers.length > 0) this.ensureRoom(await this.repository.count(user.userId, newNumbers));
    if (newNumbers.length > 0) await this.lookups.admitWatch(user.userId, newNumbers.length);
    const charges = await this.quota.chargeMany(user, newNumbers);
    const added = await this.quota.refundIfFails(charges, () =>
      this.insertEntries(user.userId, [...byNumber.values()], async (manager, inserted) => {
        const changes = { added: { old: null, new: inserted }, updated: { old: null, new: byNumber.size - inserted } };
        const target = { type: 'watchlist', id: user.userId };
        await this.activity.append(origin, { userId: user.userId, action: 'watchlist.imported', target, changes }, manager);
      }),
    );
    return { added, updated: byNumber.size - added };
  }

  /** Removes an entry (its number's state starts its retention when it was the last). */
  async unwatch(userId: string, licenceNumber: string): Promise<void> {
    if ((await this.repository.unwatch(userId, licenceNumber, this.clock.now())) === 0) throw new ApiError('WATCH_NOT_FOUND');
  }

  /** Makes these numbers of the user's watchlist due now (a test user's simulated change): the next tick re-checks them. */
  async recheckNow(userId: string, licenceNumbers: string[]): Promise<void> {
    await this.repository.makeDue(userId, licenceNumbers, this.clock.now());
  }

  async list({ userId, mode }: DataOwner, query: WatchlistQuery): Promise<{ items: WatchEntryView[]; nextCursor: string | null }> {
    const now = this.clock.now();
    const rows = await this.repository.listPage(userId, query, now.toISOString().slice(0, 10));
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((row) => watchEntryView(row, now, mode)),
      nextCursor: rows.length > query.limit ? page[page.length - 1].licenceNumber : null,
    };
  }

  private async entries({ userId, mode }: DataOwner, numbers: string[]): Promise<WatchEntryView[]> {
    const rows = await this.repository.entries(userId, numbers);
    const now = this.clock.now();
    return rows.map((row) => watchEntryView(row, now, mode));
  }

  /**
   * WATCHLIST_FULL when the numbers not watched yet would take the user's watchlist past its cap. Asked once
   * before anything is charged (so a full watchlist is refused before the quota is asked), and again where the
   * entries are inserted, under the user's lock.
   */
  private ensureRoom(count: WatchlistCount): void {
    if (!watchlistHasRoom(count, this.maxEntries)) throw new ApiError('WATCHLIST_FULL');
  }

  /**
   * Inserts or updates entries (and the numbers' shared states) in one transaction, with what `alongside` writes given
   * how many were new; returns how many were new. WATCHLIST_FULL adds none.
   */
  private insertEntries(
    userId: string,
    entries: Pick<RosterEntry, 'licenceNumber' | 'reference'>[],
    alongside?: (manager: EntityManager, added: number) => Promise<void>,
  ): Promise<number> {
    return this.repository.transaction(async (manager) => {
      const added = await this.repository.insertEntries(manager, userId, entries, this.clock.now(), (count) => this.ensureRoom(count));
      await alongside?.(manager, added);
      return added;
    });
  }
}
