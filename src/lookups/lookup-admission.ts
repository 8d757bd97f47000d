import { Injectable } from '@nestjs/common';
import { RegisterBreaker } from './breaker/register-breaker';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { LookupQueue } from './lookup-queue';
import { PendingLookups } from './pending-lookups';
import { exceedsUserBound, exceedsWaitingBounds, LookupUrgency, WaitingLimits } from './waiting-bounds';

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

  /** Throws SERVICE_UNAVAILABLE when the user's `newLookups` lookups must not be enqueued. */
  async admit(userId: string, urgency: LookupUrgency, newLookups: number): Promise<void> {
    // The bounds first: they change no state, while the breaker may hand out its one probe.
    const [queued, user] = await Promise.all([this.lookups.waitingCounts(), this.pending.waiting(userId)]);
    if (exceedsWaitingBounds(urgency, newLookups, { ...queued, user }, this.limits)) throw new ApiError('SERVICE_UNAVAILABLE');
    if (!(await this.breaker.admit())) throw new ApiError('SERVICE_UNAVAILABLE');
  }

  /**
   * For new watch entries, whose first re-check the worker makes later: refused past the user's own bound
   * only. The queue's bound and the breaker are the re-check's business when it comes.
   */
  async admitWatch(userId: string, newEntries: number): Promise<void> {
    if (exceedsUserBound(await this.pending.waiting(userId), newEntries, this.limits.userMax)) throw new ApiError('SERVICE_UNAVAILABLE');
  }
}
