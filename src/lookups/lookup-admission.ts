import { Injectable } from '@nestjs/common';
import { RegisterBreaker } from './breaker/register-breaker';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { LookupQueue } from './lookup-queue';
import { PendingLookups } from './pending-lookups';
import { exceedsQueueBound, exceedsUserBound, exceedsWaitingBounds, WaitingLimits } from './waiting-bounds';

/**
 * Decides whether new (cold) lookups may be enqueued for a user: not past the user's bound
 * (USER_MAX_WAITING_LOOKUPS) or the queue's (QUEUE_MAX_WAITING), as exceedsWaitingBounds decides, nor while
 * the register breaker is open. Asked only on the cold path, before any charge, so a refusal is a 503 with
 * nothing charged and nothing enqueued; cached repeats never pay for it.
 */
@Injectable()
export class LookupAdmission {
  private readonly limits: WaitingLimits;

  constructor(
    private readonly lookups: LookupQueue,
    private readonly pending: PendingLookups,
    private readonly breaker: RegisterBreaker,
    config: AppConfig,
  ) {
    this.limits = { queueMax: config.get('QUEUE_MAX_WAITING'), userMax: config.get('USER_MAX_WAITING_LOOKUPS') };
  }

  /** Throws SERVICE_UNAVAILABLE when a live verification's lookup must not be enqueued. */
  async admitLive(userId: string): Promise<void> {
    // The bounds first: they change no state, while the breaker may hand out its one probe.
    const [queued, user] = await Promise.all([this.lookups.waitingCounts(), this.pending.waiting(userId)]);
    if (exceedsWaitingBounds('live', 1, { ...queued, user }, this.limits)) throw new ApiError('SERVICE_UNAVAILABLE');
    if (!(await this.breaker.admit())) throw new ApiError('SERVICE_UNAVAILABLE');
  }

  /**
   * Admits a request's `newLookups` batch lookups as a whole, or throws SERVICE_UNAVAILABLE. The places are
   * held in the user's bound (PendingLookups.reserve) until the caller releases them, once its lookups are
   * parked or queued: concurrent requests of one user cannot pass the bound together.
   */
  async admitBatch(userId: string, newLookups: number): Promise<() => Promise<void>> {
    const release = await this.pending.reserve(userId, newLookups, this.limits.userMax);
    if (!release) throw new ApiError('SERVICE_UNAVAILABLE');
    try {
      // The user's own bound was decided by the hold: only the queue's is left to check.
      if (exceedsQueueBound('background', await this.lookups.waitingCounts(), this.limits.queueMax)) throw new ApiError('SERVICE_UNAVAILABLE');
      if (!(await this.breaker.admit())) throw new ApiError('SERVICE_UNAVAILABLE');
      return release;
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * For new watch entries, whose first re-check the worker makes later: refused past the user's own bound
   * only. The queue's bound and the breaker are the re-check's business when it comes.
   */
  async admitWatch(userId: string, newEntries: number): Promise<void> {
    if (exceedsUserBound(await this.pending.waiting(userId), newEntries, this.limits.userMax)) throw new ApiError('SERVICE_UNAVAILABLE');
  }
}
