import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { AppConfig } from '../config/app-config';
import { EventsService, NewEvent } from '../events/events.service';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { QuotaService } from '../quota/quota.service';
import type { FinalResult, NameSearchResult } from '../lookups/lookup-outcome';
import type { LookupSubject } from '../lookups/lookup-subject';
import { LookupRequest, LookupService, LookupUser } from '../lookups/lookup.service';
import type { LookupJobResult } from '../lookups/lookups.queue';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import type { RegisterLicence } from '@lvs/register';
import { NameSearchSubjects } from '../holders/name-search-subjects';
import { monthlyQuotaOf, servedUser } from '../auth/served-user';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { detectChanges, LicenceChange } from './detect-changes';
import { stoppedBeingActive, SuccessorConfidence, successorOf } from './successor';
import { daysUntil, dueExpiryWarning } from './expiry-warnings';
import { nextCheckAt, recheckClaimLimit } from './recheck-pace';
import { RECHECK_LOOKUP_WAIT_MS, SuccessorJobData, TICK_INTERVAL_MS } from './recheck.queue';
import type { WatchState } from './watch-entry.entity';
import { UNWATCHED_STATE_RETENTION_DAYS } from './watch-entry-view';
import { WATCHLIST_COUNT, WatchlistCount, watchlistHasRoom } from './watchlist-room';

interface Watcher {
  user_id: string;
  reference: string | null;
  state: WatchState;
  monthly_quota: number | null;
  /** when the number was last recorded as checked (the same for every watcher) */
  checked_at: Date | null;
}

/** A watcher of a licence that stopped being Active, with what finding and following its successor needs. */
interface SuccessorWatcher {
  user_id: string;
  reference: string | null;
  holder: { firstName: string; surname: string } | null;
  date_of_birth_sealed: string | null;
  follow_successor: boolean;
  monthly_quota: number | null;
}

/** One event per change for one watcher, as every re-check sends them. */
function changeEvents(licenceNumber: string, watcher: { user_id: string; reference: string | null }, changes: LicenceChange[]): NewEvent[] {
  return changes.map((change) => ({
    userId: watcher.user_id,
    type: change.type,
    data: { licenceNumber, reference: watcher.reference, previous: change.previous, current: change.current },
  }));
}

/**
 * The worker's side of monitoring: claims the numbers due for a re-check, re-checks each one once
 * for all its watchers through the one lookup queue, and turns what changed into events.
 */
@Injectable()
export class LicenceMonitor implements OnModuleDestroy {
  private readonly logger = new Logger('LicenceMonitor');
  /** aborted at shutdown: re-checks stop waiting for lookups the closing worker will not finish */
  private readonly stopping = new AbortController();
  private readonly cycleSeconds: number;
  /** SQL: the watch_entries' user `u` is served (servedUser) */
  private readonly userServed: string;
  /** SQL: the monthly quota of user `u` */
  private readonly userQuota: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quota: QuotaService,
    private readonly lookups: LookupService,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly subjects: NameSearchSubjects,
    private readonly holderData: HolderDataProtection,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.cycleSeconds = config.get('WATCH_RECHECK_SECONDS');
    this.userServed = servedUser('u', config.get('TEST_MODE_ENABLED'));
    this.userQuota = monthlyQuotaOf('u', config.get('TEST_MODE_QUOTA'));
  }

  onModuleDestroy(): void {
    this.stopping.abort();
  }

  /**
   * Takes the numbers now due, at the pace of recheckClaimLimit and with the users taking turns, and moves
   * them a cycle ahead in the same statement (a lease: a re-check that dies is tried again a cycle later);
   * SKIP LOCKED lets several workers claim at once without sharing a number. The re-check itself sets the
   * real next time (nextCheckAt) once the register has answered. Only numbers that an enabled user
   * watches are due: a disabled user's watching asks the register nothing, and its numbers, left due,
   * are claimed at the first tick after the user is enabled again.
   */
  async claimDue(): Promise<string[]> {
    const now = this.clock.now();
    // Before anything else: data is deleted on time whether or not anything is watched.
    await this.deleteExpired(now);
    const [{ watched }] = await this.dataSource.query<{ watched: number }[]>(
      `SELECT count(DISTINCT w.licence_number)::int AS watched FROM watch_entries w
       JOIN users u ON u.id = w.user_id AND ${this.userServed}`,
    );
    if (watched === 0) return [];
    const limit = recheckClaimLimit({
      watchedNumbers: watched,
      cycleSeconds: this.cycleSeconds,
      tickMs: TICK_INTERVAL_MS,
      registerPerSecond: this.config.get('REGISTER_MAX_PER_SECOND'),
      registerShare: this.config.get('WATCH_MAX_REGISTER_SHARE'),
    });
    // Users take turns: each user's due numbers are ranked by how long they have been due, and a number goes by its
    // best rank among its watchers, so that one user's backlog never holds up another's few numbers. TypeORM answers
    // an UPDATE with [rows, affected count].
    const [rows] = await this.dataSource.query<[{ licence_number: string }[], number]>(
      `WITH watchers AS (
         SELECT DISTINCT w.user_id FROM watch_entries w JOIN users u ON u.id = w.user_id AND ${this.userServed}
       ),
       turns AS (
         SELECT due.licence_number, due.next_check_at, row_number() OVER (PARTITION BY watchers.user_id ORDER BY due.next_check_at) AS turn
         FROM watchers CROSS JOIN LATERAL (
           SELECT s.licence_number, s.next_check_at FROM watch_entries w JOIN licence_states s ON s.licence_number = w.licence_number
           WHERE w.user_id = watchers.user_id AND s.next_check_at <= $1
           ORDER BY s.next_check_at LIMIT $2
         ) due
       ),
       chosen AS (
         SELECT licence_number FROM turns GROUP BY licence_number ORDER BY min(turn), min(next_check_at) LIMIT $2
       ),
       due AS (
         SELECT s.licence_number FROM licence_states s JOIN chosen c ON c.licence_number = s.licence_number
         WHERE s.next_check_at <= $1 FOR UPDATE OF s SKIP LOCKED
       )
       UPDATE licence_states s SET next_check_at = $1::timestamptz + make_interval(secs => $3)
       FROM due WHERE s.licence_number = due.licence_number
       RETURNING s.licence_number`,
      [now, limit, this.cycleSeconds],
    );
    return rows.map((row) => row.licence_number);
  }

  /**
   * Events past their retention, the states (holder names) of numbers nobody has watched for as long, and the
   * per-number ledger of periods past LEDGER_RETENTION_MONTHS.
   */
  private async deleteExpired(now: Date): Promise<void> {
    await this.events.deleteExpired(now);
    await this.quota.deleteExpiredLedger();
    await this.dataSource.query(
      `DELETE FROM licence_states s
       WHERE s.unwatched_since < $1::timestamptz - make_interval(days => $2)
         AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.licence_number = s.licence_number)`,
      [now, UNWATCHED_STATE_RETENTION_DAYS],
    );
  }

  /**
   * One re-check of one number for every user watching it. Returns the successor search to make when the licence
   * stopped being Active (its status events wait for that search's answer), else null.
   */
  async recheck(licenceNumber: string): Promise<SuccessorJobData | null> {
    const active = await this.settleQuota(licenceNumber);
    if (active.length === 0) return null; // every watcher is paused: no lookup, no charge
    // The lookup takes the first paying watcher's turn: one user's many watched numbers wait in their own list.
    const result = await this.currentResult(licenceNumber, active[0].user_id, active[0].monthly_quota, active[0].checked_at);
    return result ? this.record(licenceNumber, result, active) : null;
  }

  /**
   * After a watched licence stopped being Active: one name search per distinct stored date of birth (watchers
   * without one share a search by name alone), with the last known card's names. Exactly one other Active licence
   * is its successor: its watchers get licence.replaced instead of the held-back status events, and with
   * followSuccessor and a date of birth the successor is watched with the same reference. Anything else (no
   * candidate, several, a failed search) sends the held-back events as any re-check would.
   */
  async followSuccessor({ licenceNumber, previous, current, withheld }: SuccessorJobData): Promise<void> {
    const watchers = await this.dataSource.query<SuccessorWatcher[]>(
      `SELECT w.user_id, w.reference, w.holder, w.date_of_birth_sealed, w.follow_successor, ${this.userQuota} AS monthly_quota
       FROM watch_entries w JOIN users u ON u.id = w.user_id
       WHERE w.licence_number = $1 AND w.state = 'ACTIVE' AND ${this.userServed}`,
      [licenceNumber],
    );
    const byDateOfBirth = new Map<string | null, SuccessorWatcher[]>();
    for (const watcher of watchers) {
      // A date no key of the ring opens (its key removed before the reseal) leaves a search by name alone: the held-back events still go out.
      const dateOfBirth =
        watcher.date_of_birth_sealed === null
          ? null
          : this.holderData.openOrNull(watcher.date_of_birth_sealed, holderDataRow.watchEntry(watcher.user_id, licenceNumber));
      if (watcher.date_of_birth_sealed !== null && dateOfBirth === null) {
        this.logger.warn(`A date of birth watching ${maskLicenceNumber(licenceNumber)} cannot be opened with HOLDER_DATA_KEYS: searching by name only`);
      }
      byDateOfBirth.set(dateOfBirth, [...(byDateOfBirth.get(dateOfBirth) ?? []), watcher]);
    }
    const events: NewEvent[] = [];
    for (const [dateOfBirth, group] of byDateOfBirth) {
      const search = await this.successorSearch(previous, dateOfBirth, { userId: group[0].user_id, monthlyQuota: group[0].monthly_quota });
      const successor = search === null ? null : successorOf(search, licenceNumber);
      if (successor === null) {
        events.push(...group.flatMap((watcher) => changeEvents(licenceNumber, watcher, withheld)));
        continue;
      }
      const confidence: SuccessorConfidence = dateOfBirth === null ? 'NAME_ONLY' : 'NAME_AND_DATE_OF_BIRTH';
      this.logger.log(`Successor of ${maskLicenceNumber(licenceNumber)} found (${confidence}): ${maskLicenceNumber(successor.licenceNumber)}`);
      for (const watcher of group) {
        await this.dataSource.query('UPDATE watch_entries SET successor_licence_number = $3 WHERE user_id = $1 AND licence_number = $2', [
          watcher.user_id,
          licenceNumber,
          successor.licenceNumber,
        ]);
        events.push({
          userId: watcher.user_id,
          type: 'licence.replaced',
          data: { licenceNumber, reference: watcher.reference, previous, current, successorLicenceNumber: successor.licenceNumber, confidence },
        });
        if (watcher.follow_successor && dateOfBirth !== null) events.push(...(await this.watchSuccessor(watcher, successor.licenceNumber, dateOfBirth)));
      }
    }
    await this.dispatcher.dispatch(await this.events.record(events, this.clock.now()));
  }

  /** The name search for a successor, a re-check lookup in the first watcher's turn; null when it cannot answer now. */
  private successorSearch(previous: RegisterLicence, dateOfBirth: string | null, watcher: LookupUser): Promise<NameSearchResult | null> {
    const search = { surname: previous.surname, firstName: previous.firstName, ...(dateOfBirth === null ? {} : { dateOfBirth }) };
    return this.recheckLookup<NameSearchResult>(this.subjects.subject(search), watcher);
  }

  /**
   * A re-check's lookup: waits up to RECHECK_LOOKUP_WAIT_MS, or until the worker stops. null when it is refused
   * (the breaker is open: re-checks keep off a register that is down), failed, or still running: nothing is concluded.
   */
  private async recheckLookup<Result extends LookupJobResult>(
    subject: LookupSubject,
    user: LookupUser,
    options: Pick<LookupRequest<Result>, 'cache' | 'refresh'> = {},
  ): Promise<Result | null> {
    try {
      const answer = await this.lookups.lookup<Result>({
        subject,
        user,
        kind: 'recheck',
        deadline: Date.now() + RECHECK_LOOKUP_WAIT_MS,
        signal: this.stopping.signal,
        ...options,
      });
      if (answer.state === 'answered') return answer.result;
      this.logger.warn(`A re-check's lookup is still running: left to the next cycle`);
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 'SERVICE_UNAVAILABLE') this.logger.warn(`A re-check's lookup failed (${error.code}): left to the next cycle`);
      return null;
    }
  }

  /**
   * Watches the successor for the watcher with the same reference and holder, charged as a new number; without room
   * in the quota it is PAUSED, as a re-check would leave it. A successor already on the watchlist stays as it is.
   */
  private async watchSuccessor(watcher: SuccessorWatcher, successorNumber: string, dateOfBirth: string): Promise<NewEvent[]> {
    const now = this.clock.now();
    const [count] = await this.dataSource.query<WatchlistCount[]>(WATCHLIST_COUNT, [watcher.user_id, [successorNumber]]);
    if (!watchlistHasRoom(count, this.config.get('WATCH_MAX_ENTRIES_PER_USER'))) {
      this.logger.warn(`A watchlist is full: the successor ${maskLicenceNumber(successorNumber)} is not followed`);
      return [];
    }
    const charged = (await this.quota.tryChargeOnce(watcher.user_id, watcher.monthly_quota, successorNumber)) !== null;
    await this.dataSource.query(`INSERT INTO licence_states (licence_number, next_check_at) VALUES ($1, $2) ON CONFLICT (licence_number) DO NOTHING`, [
      successorNumber,
      now,
    ]);
    const inserted = await this.dataSource.query<unknown[]>(
      `INSERT INTO watch_entries (user_id, licence_number, reference, added_at, state, paused_reason, holder, date_of_birth_sealed, follow_successor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true)
       ON CONFLICT (user_id, licence_number) DO NOTHING RETURNING 1`,
      [
        watcher.user_id,
        successorNumber,
        watcher.reference,
        now,
        charged ? 'ACTIVE' : 'PAUSED',
        charged ? null : 'QUOTA_EXCEEDED',
        watcher.holder,
        // Sealed anew for the successor's row: a seal opens only in the row it was made for.
        this.holderData.seal(dateOfBirth, holderDataRow.watchEntry(watcher.user_id, successorNumber)),
      ],
    );
    if (inserted.length === 0 || charged) return [];
    return [{ userId: watcher.user_id, type: 'watch.paused', data: { licenceNumber: successorNumber, reference: watcher.reference, reason: 'QUOTA_EXCEEDED' } }];
  }

  /**
   * Charges each enabled watcher for the number in the current period (free after the first time) and
   * pauses or resumes their entries accordingly. Returns the watchers left active. A disabled user is not
   * a watcher here: not charged, its entry's state untouched, and no event of this re-check is its.
   */
  private async settleQuota(licenceNumber: string): Promise<Watcher[]> {
    const watchers = await this.dataSource.query<Watcher[]>(
      `SELECT w.user_id, w.reference, w.state, ${this.userQuota} AS monthly_quota, s.checked_at
       FROM watch_entries w JOIN users u ON u.id = w.user_id JOIN licence_states s ON s.licence_number = w.licence_number
       WHERE w.licence_number = $1 AND ${this.userServed}`,
      [licenceNumber],
    );
    const active: Watcher[] = [];
    const transitions: NewEvent[] = [];
    for (const watcher of watchers) {
      const charged = (await this.quota.tryChargeOnce(watcher.user_id, watcher.monthly_quota, licenceNumber)) !== null;
      if (charged) active.push(watcher);
      const next: WatchState = charged ? 'ACTIVE' : 'PAUSED';
      if (next === watcher.state) continue;
      // A paused entry keeps the state as of its pause: later answers are paid for by other watchers.
      await this.dataSource.query(
        `UPDATE watch_entries w SET state = $3, paused_reason = $4,
           paused_result = CASE WHEN $3 = 'PAUSED' THEN s.result END,
           paused_checked_at = CASE WHEN $3 = 'PAUSED' THEN s.checked_at END,
           paused_last_changed_at = CASE WHEN $3 = 'PAUSED' THEN s.last_changed_at END
         FROM licence_states s
         WHERE w.user_id = $1 AND w.licence_number = $2 AND s.licence_number = w.licence_number`,
        [watcher.user_id, licenceNumber, next, charged ? null : 'QUOTA_EXCEEDED'],
      );
      transitions.push({
        userId: watcher.user_id,
        type: charged ? 'watch.resumed' : 'watch.paused',
        data: { licenceNumber, reference: watcher.reference, reason: charged ? null : 'QUOTA_EXCEEDED' },
      });
    }
    await this.dispatcher.dispatch(await this.events.record(transitions, this.clock.now()));
    return active;
  }

  /**
   * The register's answer for this cycle: a cached answer newer than the last one recorded (a
   * partner's verify) counts as the re-check; otherwise a lookup at the lowest priority that
   * skips the cache. null when the lookup failed or is still running, or when the register breaker is open
   * (re-checks keep off a register that is down, like new verifications): nothing is concluded.
   */
  private async currentResult(licenceNumber: string, userId: string, monthlyQuota: number | null, lastChecked: Date | null): Promise<FinalResult | null> {
    return this.recheckLookup<FinalResult>(
      this.lookups.numberSubject(licenceNumber),
      { userId, monthlyQuota },
      { cache: (cached) => lastChecked !== null && Date.parse(cached.checkedAt) > lastChecked.getTime(), refresh: true },
    );
  }

  /**
   * Compares with the last known answer, stores the new one, and records an event per change per watcher. When an
   * Active licence stopped being so, its status events are held back for the successor search, which it returns.
   */
  private async record(licenceNumber: string, current: FinalResult, watchers: Watcher[]): Promise<SuccessorJobData | null> {
    const now = this.clock.now();
    const { stored, followUp } = await this.dataSource.transaction(async (manager) => {
      const [state] = await manager.query<{ result: FinalResult | null; expiry_warnings: number[] }[]>(
        'SELECT result, expiry_warnings FROM licence_states WHERE licence_number = $1 FOR UPDATE',
        [licenceNumber],
      );
      const previous = state?.result ?? null;
      const changes = detectChanges(previous, current);
      const previousLicence = previous?.status === 'FOUND' ? previous.licence : null;
      const currentLicence = current.status === 'FOUND' ? current.licence : null;
      // A renewal (a new expiry date) starts the warnings again.
      const sameExpiry = previousLicence?.expiryDate === currentLicence?.expiryDate;
      const daysLeft = currentLicence ? daysUntil(currentLicence.expiryDate, now) : null;
      const expiry =
        daysLeft === null ? { warnAt: null, sent: [] } : dueExpiryWarning(daysLeft, sameExpiry ? (state?.expiry_warnings ?? []) : []);
      await manager.query(
        `UPDATE licence_states SET result = $2, checked_at = $3, expiry_warnings = $4,
           last_changed_at = CASE WHEN $5 THEN $6 ELSE last_changed_at END, next_check_at = $7
         WHERE licence_number = $1`,
        [licenceNumber, current, current.checkedAt, expiry.sent, changes.length > 0, now, nextCheckAt(now, this.cycleSeconds)],
      );
      const followUp: SuccessorJobData | null =
        previousLicence !== null && stoppedBeingActive(previousLicence, current)
          ? { licenceNumber, previous: previousLicence, current: currentLicence, withheld: changes.filter((change) => change.type !== 'licence.details_changed') }
          : null;
      const announced = followUp === null ? changes : changes.filter((change) => change.type === 'licence.details_changed');
      const events: NewEvent[] = watchers.flatMap((watcher) => [
        ...changeEvents(licenceNumber, watcher, announced),
        ...(expiry.warnAt === null
          ? []
          : [
              {
                userId: watcher.user_id,
                type: 'licence.expiring' as const,
                data: { licenceNumber, reference: watcher.reference, previous: previousLicence, current: currentLicence, daysLeft },
              },
            ]),
      ]);
      return { stored: await this.events.record(events, now, manager), followUp };
    });
    await this.dispatcher.dispatch(stored);
    return followUp;
  }
}
