import { Injectable, Logger } from '@nestjs/common';
import type { SandboxLicence } from '@lvs/test-register';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { UserModes } from '../auth/user-modes';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { Charge, QuotaService } from '../quota/quota.service';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import type { BreakerPhase } from './breaker/breaker-state';
import { BreakerChange, RegisterBreaker } from './breaker/register-breaker';
import { LiveLookups, LivePlace } from './live-lookups';
import { FinalResult, LookupJobResult, LookupStanding, lookupFailureCode } from './lookup-outcome';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';
import { LookupSettlement } from './lookup-settlement';
import { cachedAnswers, LookupRequest, LookupUser, paymentOf, readsCache, refreshes } from './lookup-request';
import type { LookupSubject, NamedSubject } from './lookup-subject';
import { LOOKUP_PRIORITY, livePriority, newLookupJobId } from './lookup-jobs';
import { forWorld, LookupWorld, worldOfUser } from './lookup-world';
import { PendingLookups } from './pending-lookups';
import { raceAbort } from './race-abort';
import { ResultCache } from './result-cache';
import { TestRegisters } from './test-register';
import { boundingQueue, exceedsQueueBound, exceedsUserBound, exceedsWaitingBounds, liveLookupBound, WaitingLimits } from './waiting-bounds';

export type LookupAnswer<Result extends LookupJobResult> =
  | { state: 'answered'; result: Result; source: 'cache' | 'register'; newCharge: Charge | null }
  | { state: 'pending'; jobId: string; newCharge: Charge | null };

/** A request once its world is known, and the subject as the world names it (cache key, single flight, the job's queue). */
type RequestInWorld = LookupRequest & { world: LookupWorld; named: NamedSubject };

const BACKGROUND_PRIORITY = { batch: LOOKUP_PRIORITY.batchItem, recheck: LOOKUP_PRIORITY.watchlistRecheck } as const;

/** What lets a lookup through to its world's register: the live register's breaker; a test register takes every one. */
interface RegisterGate {
  admit(): Promise<boolean>;
}
const OPEN_GATE: RegisterGate = { admit: () => Promise.resolve(true) };

/**
 * The one road to the register. Every lookup, of every path (verify, verify-holder and its date-of-birth search,
 * search by name, roster rows and their holder columns, re-checks, successor searches, and the console through
 * the same services), goes through lookup(): the cache, admission (the user's bounds, the queue's bound, the
 * breaker), the charge, single flight, the queue and its turns, the wait, and the refund of a failure, in that
 * order, in one place. Callers keep only their own decisions: what to answer, record or emit.
 */
@Injectable()
export class LookupService {
  private readonly logger = new Logger('Lookups');
  private readonly limits: WaitingLimits & { liveMax: number };
  /** Longer than a charge and the two Redis commands after it can take, with room for a slow event loop. */
  private readonly intentLeaseMs: number;

  constructor(
    private readonly queue: LookupQueue,
    private readonly pending: PendingLookups,
    private readonly live: LiveLookups,
    private readonly payers: LookupPayers,
    private readonly settlement: LookupSettlement,
    private readonly cache: ResultCache,
    private readonly breaker: RegisterBreaker,
    private readonly quota: QuotaService,
    private readonly userModes: UserModes,
    private readonly testRegisters: TestRegisters,
    config: AppConfig,
  ) {
    this.limits = {
      queueMax: config.get('QUEUE_MAX_WAITING'),
      userMax: config.get('USER_MAX_WAITING_LOOKUPS'),
      liveMax: config.get('USER_MAX_LIVE_LOOKUPS'),
    };
    this.intentLeaseMs = config.get('DATABASE_CHARGE_TIMEOUT_MS') + 2 * config.get('DEPENDENCY_TIMEOUT_MS') + 5000;
    this.queue.onLookupFinished((jobId) => {
      this.live
        .finished(jobId)
        .catch((error: unknown) => this.logger.warn(`Releasing the live places of lookup ${jobId} failed: ${(error as Error).message}`));
    });
  }

  /**
   * Looks the subject up, or answers from the cache. Refused (the user's or the queue's bound, the breaker):
   * SERVICE_UNAVAILABLE, with nothing charged and nothing queued. Failed for good: the failure's error, with its
   * charge and payer refunded. Redis down or frozen: SERVICE_UNAVAILABLE within DEPENDENCY_TIMEOUT_MS.
   */
  lookup<Result extends LookupJobResult = FinalResult>(request: LookupRequest): Promise<LookupAnswer<Result>> {
    return this.lookupOrThrow<Result>(request).catch((error: unknown) => {
      throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
    });
  }

  /**
   * Holds places in the user's bound for a request about to look up many subjects at once (a roster), refusing it
   * whole past the user's or the queue's bound or while the breaker is open; subjects in the cache need no place.
   * Its lookups are then of kind `batch`; the caller releases the hold once they are queued.
   */
  async reserve(user: LookupUser, subjects: LookupSubject[]): Promise<() => Promise<void>> {
    const { userId } = user;
    const world = await this.worldOf(user);
    const count = await this.cache.countMissing(subjects.map((subject) => this.cache.names(world, subject.job).cacheKey));
    if (count === 0) return async () => undefined;
    const release = await this.pending.reserve(userId, count, this.limits.userMax);
    if (!release) throw new ApiError('SERVICE_UNAVAILABLE');
    try {
      const queued = await this.queue.waitingCounts(boundingQueue(world.side));
      if (exceedsQueueBound('background', queued, this.limits.queueMax)) throw new ApiError('SERVICE_UNAVAILABLE');
      if (!(await this.gate(world).admit())) throw new ApiError('SERVICE_UNAVAILABLE');
      return release;
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * For new watch entries, whose first re-check the worker makes later: refused past the user's own bound only.
   * The queue's bound and the breaker are the re-check's business when it comes.
   */
  async admitWatch(userId: string, newEntries: number): Promise<void> {
    if (exceedsUserBound(await this.pending.waiting(userId), newEntries, this.limits.userMax)) throw new ApiError('SERVICE_UNAVAILABLE');
  }

  /** Where a job that a `pending` answer named stands now, read once. */
  standing<Result extends LookupJobResult = FinalResult>(jobId: string): Promise<LookupStanding<Result>> {
    return this.queue.standing<Result>(jobId);
  }

  /** Called for every lookup job that completes or fails for good, whichever process ran or queued it. */
  onFinished(listener: (jobId: string, outcome: 'completed' | 'failed') => void): void {
    this.queue.onLookupFinished(listener);
  }

  /**
   * Withdraws a user's part in a job that is no longer wanted (the user was disabled). The user's charges waiting
   * on it are taken out of its payers first, so that no settlement forgets or refunds them meanwhile; then
   * `endWaiting` ends what waited on the job and answers whether it is left without the job's answer (whoever ended
   * it: another process may have taken no charges and ended it first). The charges are refunded then, or when the job
   * failed; otherwise the job's answer reached its waiters and the charges stand. A job not yet
   * started (parked, or waiting out a retry) is removed, so that it never reaches the register; one some other
   * request joined is left to that request's reconciliation, which asks again.
   */
  async withdraw(userId: string, jobId: string, endWaiting: () => Promise<boolean>): Promise<void> {
    const charges = await this.payers.withdraw(jobId, userId);
    const ended = await endWaiting();
    if (ended || (await this.queue.standing(jobId)).state === 'failed') for (const charge of charges) await this.quota.refund(charge);
    await this.queue.removeIfDelayed(jobId);
  }

  /** Refunds what waits on a failed job (at most once, whoever asks); for callers that found the failure themselves. */
  refundFailed(jobId: string): Promise<void> {
    return this.settlement.refund(jobId);
  }

  /** The register breaker's latest phase changes, newest first (the operator console's Register page). */
  breakerHistory(count: number): Promise<BreakerChange[]> {
    return this.breaker.history(count);
  }

  /** The register breaker's phase, as every process shares it (the register watch's down alert). */
  async registerPhase(): Promise<BreakerPhase> {
    return (await this.breaker.state()).phase;
  }

  /** When the oldest lookup waiting for a worker was queued (epoch ms), null with none (the backlog alert). */
  oldestWaitingSince(): Promise<number | null> {
    return this.queue.oldestWaitingSince();
  }

  /** What a test user's built-in register now answers for a number (test mode's simulate calls). */
  testAnswer(testUserId: string, licenceNumber: string) {
    return this.testRegisters.answer(testUserId, licenceNumber);
  }

  /** Stores a test user's changed licences, and drops its cached answers for them so that its next lookup sees them. */
  changeTestLicences(testUserId: string, licences: SandboxLicence[], changedAt: Date): Promise<void> {
    return this.testRegisters.change(testUserId, licences, changedAt);
  }

  /** Forgets a test user's change of a number: its register answers from its own data again. */
  restoreTestLicence(testUserId: string, licenceNumber: string): Promise<void> {
    return this.testRegisters.restore(testUserId, licenceNumber);
  }

  /**
   * Where the subject's result is cached in the user's world, for callers that read it themselves (verify's claim). A
   * test user's lookups are its own: their own cache entries and single flight, and a job its test register answers.
   */
  cacheKey(subject: LookupSubject, user: Pick<AuthenticatedUser, 'userId' | 'mode'>): string {
    return this.cache.names(worldOfUser(user.userId, user.mode), subject.job).cacheKey;
  }

  /** The user's world, from its side (read from its row when the caller has no key in hand). */
  private async worldOf(user: LookupUser): Promise<LookupWorld> {
    return worldOfUser(user.userId, user.mode ?? (await this.userModes.of(user.userId)));
  }

  private gate(world: LookupWorld): RegisterGate {
    return forWorld(world, { live: this.breaker, test: () => OPEN_GATE });
  }

  private async lookupOrThrow<Result extends LookupJobResult>(request: LookupRequest): Promise<LookupAnswer<Result>> {
    const world = await this.worldOf(request.user);
    return this.lookupInWorld<Result>({ ...request, world, named: { unit: request.subject.unit, ...this.cache.names(world, request.subject.job) } });
  }

  private async lookupInWorld<Result extends LookupJobResult>(request: RequestInWorld): Promise<LookupAnswer<Result>> {
    const cached = await this.fromCache<Result>(request);
    if (cached) return { state: 'answered', result: cached, source: 'cache', newCharge: null };
    const joinJob = request.kind === 'live' ? request.joinJob : null;
    if (joinJob && (await this.queue.isInFlight(joinJob))) return this.awaitJob<Result>(request, joinJob, null);
    const ownJobId = newLookupJobId(request.named.job);
    const { chargeNow, payer } = paymentOf(request);
    let place: LivePlace | null = null;
    let charge: Charge | null = null;
    let jobId: string;
    // A roster row's charge, once it waits on the job, stands or falls with the job: the row gets the job's answer
    // (from the queue or the cache, when its batch is reconciled) even if this call fails after that point.
    let payerOnJob = false;
    try {
      place = await this.admit(request, ownJobId);
      charge = chargeNow ? await this.chargeWithIntent(request.user, request.subject.unit) : null;
      jobId = await this.enqueue(request, ownJobId, place);
      if (charge?.isNew) await this.payers.add(jobId, charge);
      if (payer) {
        await this.payers.add(jobId, payer);
        payerOnJob = request.kind === 'batch';
      }
      if (request.kind !== 'recheck') await request.onQueued?.(jobId);
    } catch (error) {
      if (place) await this.live.release(place).catch(() => undefined);
      for (const refund of [charge, payerOnJob ? null : payer]) {
        if (!refund) continue;
        await this.quota.refund(refund);
        await this.payers.dropIntent(refund).catch(() => undefined);
      }
      throw error;
    }
    return this.awaitJob<Result>(request, jobId, charge?.isNew ? charge : null);
  }

  private async fromCache<Result extends LookupJobResult>({ cache, named }: RequestInWorld): Promise<Result | null> {
    if (!readsCache(cache)) return null;
    const cached = await this.cache.get<Result>(named.cacheKey);
    return cached && cachedAnswers(cache, cached.checkedAt) ? cached : null;
  }

  /**
   * A live lookup takes a place in the user's live bound (its account's own, which comes with the caller's key or
   * session, else USER_MAX_LIVE_LOOKUPS), within the bound of the queue it
   * will wait in (boundingQueue) and the user's background one, then asks the breaker last, since it may hand out its one probe. A re-check
   * asks only the breaker; a roster's row was admitted with its roster (reserve).
   */
  private async admit(request: RequestInWorld, jobId: string): Promise<LivePlace | null> {
    const gate = this.gate(request.world);
    if (request.kind === 'batch') return null;
    if (request.kind === 'recheck') {
      if (!(await gate.admit())) throw new ApiError('SERVICE_UNAVAILABLE');
      return null;
    }
    const { userId } = request.user;
    const [queued, user] = await Promise.all([this.queue.waitingCounts(boundingQueue(request.world.side)), this.pending.waiting(userId)]);
    if (exceedsWaitingBounds('live', 1, { ...queued, user }, this.limits)) throw new ApiError('SERVICE_UNAVAILABLE');
    const place = await this.live.take(userId, jobId, liveLookupBound(request.user.liveLookupLimit, this.limits.liveMax));
    if (!place) throw new ApiError('SERVICE_UNAVAILABLE');
    if (await gate.admit()) return place;
    await this.live.release(place);
    throw new ApiError('SERVICE_UNAVAILABLE');
  }

  /** Queues the lookup in its kind's turns (or joins the one in flight for its subject); answers the job's id. */
  private async enqueue(request: RequestInWorld, ownJobId: string, place: LivePlace | null): Promise<string> {
    const { named, user } = request;
    if (request.kind !== 'live' || !place) {
      return this.queue.enqueueFor(user.userId, named, BACKGROUND_PRIORITY[request.kind as 'batch' | 'recheck'], { refresh: refreshes(request.cache) });
    }
    const jobId = await this.queue.enqueue(named, livePriority(place.ahead), ownJobId, request.requestId);
    if (jobId === ownJobId) return jobId;
    // Joined another job: the place waits on it, and goes back at once should that job have ended meanwhile.
    const moved = await this.live.move(place, jobId);
    if (!(await this.queue.isInFlight(jobId))) await this.live.release(moved);
    return jobId;
  }

  /**
   * Charges a unit for a new lookup, having first recorded the intent to refund it: should this process die before
   * the charge's payer record is written, the sweep of any process refunds it (the client had no answer).
   */
  private async chargeWithIntent(user: LookupUser, unit: string): Promise<Charge> {
    const planned = this.quota.plan(user.userId, unit);
    await this.payers.intend(planned, this.intentLeaseMs);
    try {
      const charge = await this.quota.chargeOnce(user, unit, planned);
      if (!charge.isNew) await this.payers.dropIntent(planned).catch(() => undefined);
      return charge;
    } catch (error) {
      // A refused charge committed nothing. Any other failure (a deadline, a lost connection) may have committed it, or
      // may yet: a refund is started without waiting for it (the database may be the thing that is stuck), and the
      // intent stays for the sweep, which refunds one committed later (a refund of a charge id no row carries changes
      // nothing).
      if (error instanceof ApiError && error.code === 'QUOTA_EXCEEDED') await this.payers.dropIntent(planned).catch(() => undefined);
      else void this.quota.refund(planned).catch(() => undefined);
      throw error;
    }
  }

  private async awaitJob<Result extends LookupJobResult>(request: RequestInWorld, jobId: string, newCharge: Charge | null): Promise<LookupAnswer<Result>> {
    const pending = { state: 'pending', jobId, newCharge } as const;
    // A roster's row answers pending at once: its job settles it when it ends.
    if (request.kind === 'batch') return pending;
    const { deadline } = request;
    const signal = request.kind === 'recheck' ? request.signal : undefined;
    const waiting = this.queue.waitFor<Result>(jobId, Math.max(deadline - Date.now(), 0)).catch((error: unknown) => {
      // The lookup is queued (and maybe charged): the client learns its result by retrying, as after a 202.
      if (isRedisUnavailable(error)) return { state: 'pending' as const };
      throw error;
    });
    const wait = signal ? await raceAbort(waiting, signal, { state: 'pending' as const }) : await waiting;
    switch (wait.state) {
      case 'completed':
        return { state: 'answered', result: wait.result, source: 'register', newCharge };
      case 'pending':
        return pending;
      case 'failed':
        await this.settlement.refund(jobId);
        throw new ApiError(lookupFailureCode(wait.reason));
    }
  }
}
