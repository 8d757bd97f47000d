import { Injectable, Logger } from '@nestjs/common';
import type { RegisterLicence } from '@lvs/register';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { EventsService, NewEvent } from '../events/events.service';
import { NameSearchSubjects } from '../holders/name-search-subjects';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import type { NameSearchResult } from '../lookups/lookup-outcome';
import type { LookupUser } from '../lookups/lookup-request';
import { QuotaService } from '../quota/quota.service';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { changeEvents } from './change-events';
import { RecheckLookups } from './recheck-lookups';
import { LIVE_WORLD, SuccessorJobData } from './recheck.queue';
import { SuccessorConfidence, successorOf } from './successor';
import { watchlistHasRoom } from './watchlist-room';
import { SuccessorWatcher, WatchlistRepository } from './watchlist.repository';

/** Finds the licence that replaced one that stopped being Active, tells its watchers, and watches it for those who asked. */
@Injectable()
export class SuccessorFollower {
  // The monitor's log context, as before its steps became classes of their own.
  private readonly logger = new Logger('LicenceMonitor');

  constructor(
    private readonly repository: WatchlistRepository,
    private readonly recheckLookups: RecheckLookups,
    private readonly quota: QuotaService,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly subjects: NameSearchSubjects,
    private readonly holderData: HolderDataProtection,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * One name search per distinct stored date of birth (watchers without one share a search by name alone), with
   * the last known card's names. Exactly one other Active licence is its successor: its watchers get
   * licence.replaced instead of the held-back status events, and with followSuccessor and a date of birth the
   * successor is watched with the same reference. Anything else (no candidate, several, a failed search) sends the
   * held-back events as any re-check would.
   */
  async follow({ licenceNumber, world = LIVE_WORLD, previous, current, withheld }: SuccessorJobData): Promise<void> {
    const watchers = await this.repository.successorWatchers(licenceNumber, world);
    const byDateOfBirth = new Map<string | null, SuccessorWatcher[]>();
    for (const watcher of watchers) {
      // A date no key of the ring opens (its key removed before the reseal) leaves a search by name alone: the held-back events still go out.
      const dateOfBirth =
        watcher.dateOfBirthSealed === null
          ? null
          : this.holderData.openOrNull(watcher.dateOfBirthSealed, holderDataRow.watchEntry(watcher.userId, licenceNumber));
      if (watcher.dateOfBirthSealed !== null && dateOfBirth === null) {
        this.logger.warn(`A date of birth watching ${maskLicenceNumber(licenceNumber)} cannot be opened with HOLDER_DATA_KEYS: searching by name only`);
      }
      byDateOfBirth.set(dateOfBirth, [...(byDateOfBirth.get(dateOfBirth) ?? []), watcher]);
    }
    const events: NewEvent[] = [];
    for (const [dateOfBirth, group] of byDateOfBirth) {
      const search = await this.search(previous, dateOfBirth, { userId: group[0].userId, monthlyQuota: group[0].monthlyQuota });
      const successor = search === null ? null : successorOf(search, licenceNumber);
      if (successor === null) {
        events.push(...group.flatMap((watcher) => changeEvents(licenceNumber, watcher, withheld)));
        continue;
      }
      const confidence: SuccessorConfidence = dateOfBirth === null ? 'NAME_ONLY' : 'NAME_AND_DATE_OF_BIRTH';
      this.logger.log(`Successor of ${maskLicenceNumber(licenceNumber)} found (${confidence}): ${maskLicenceNumber(successor.licenceNumber)}`);
      for (const watcher of group) {
        await this.repository.setSuccessor(watcher.userId, licenceNumber, successor.licenceNumber);
        events.push({
          userId: watcher.userId,
          type: 'licence.replaced',
          data: { licenceNumber, reference: watcher.reference, previous, current, successorLicenceNumber: successor.licenceNumber, confidence },
        });
        if (watcher.followSuccessor && dateOfBirth !== null) events.push(...(await this.watchSuccessor(watcher, successor.licenceNumber, dateOfBirth)));
      }
    }
    await this.dispatcher.dispatch(await this.events.record(events, this.clock.now()));
  }

  /** The name search for a successor, a re-check lookup in the first watcher's turn; null when it cannot answer now. */
  private search(previous: RegisterLicence, dateOfBirth: string | null, watcher: LookupUser): Promise<NameSearchResult | null> {
    const search = { surname: previous.surname, firstName: previous.firstName, ...(dateOfBirth === null ? {} : { dateOfBirth }) };
    return this.recheckLookups.lookup<NameSearchResult>(this.subjects.subject(search), watcher);
  }

  /**
   * Watches the successor for the watcher with the same reference and holder, charged as a new number; without room
   * in the quota it is PAUSED, as a re-check would leave it. A successor already on the watchlist stays as it is.
   */
  private async watchSuccessor(watcher: SuccessorWatcher, successorNumber: string, dateOfBirth: string): Promise<NewEvent[]> {
    const now = this.clock.now();
    if (!watchlistHasRoom(await this.repository.count(watcher.userId, [successorNumber]), this.config.get('WATCH_MAX_ENTRIES_PER_USER'))) {
      this.logger.warn(`A watchlist is full: the successor ${maskLicenceNumber(successorNumber)} is not followed`);
      return [];
    }
    const charged = (await this.quota.tryChargeOnce(watcher.userId, watcher.monthlyQuota, successorNumber)) !== null;
    const inserted = await this.repository.insertSuccessorEntry({
      userId: watcher.userId,
      licenceNumber: successorNumber,
      reference: watcher.reference,
      addedAt: now,
      state: charged ? 'ACTIVE' : 'PAUSED',
      pausedReason: charged ? null : 'QUOTA_EXCEEDED',
      holder: watcher.holder,
      // Sealed anew for the successor's row: a seal opens only in the row it was made for.
      dateOfBirthSealed: this.holderData.seal(dateOfBirth, holderDataRow.watchEntry(watcher.userId, successorNumber)),
    });
    if (!inserted || charged) return [];
    return [
      { userId: watcher.userId, type: 'watch.paused', data: { licenceNumber: successorNumber, reference: watcher.reference, reason: 'QUOTA_EXCEEDED' } },
    ];
  }
}
