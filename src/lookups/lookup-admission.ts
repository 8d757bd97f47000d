import { Injectable } from '@nestjs/common';
import { RegisterBreaker } from './breaker/register-breaker';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { LookupQueue } from './lookup-queue';

/**
 * Decides whether a new (cold) lookup may be enqueued: not while QUEUE_MAX_WAITING lookups already
 * wait, nor while the register breaker is open. Asked only on the cold path, before any charge,
 * so a refusal is a 503 with nothing charged and nothing enqueued; cached repeats never pay for it.
 */
@Injectable()
export class LookupAdmission {
  private readonly maxWaiting: number;

  constructor(
    private readonly lookups: LookupQueue,
    private readonly breaker: RegisterBreaker,
    config: AppConfig,
  ) {
    this.maxWaiting = config.get('QUEUE_MAX_WAITING');
  }

  /** Throws SERVICE_UNAVAILABLE when the lookup must not be enqueued. */
  async admit(): Promise<void> {
    // The queue bound first: it changes no state, while the breaker may hand out its one probe.
    if ((await this.lookups.waitingCount()) >= this.maxWaiting) throw new ApiError('SERVICE_UNAVAILABLE');
    if (!(await this.breaker.admit())) throw new ApiError('SERVICE_UNAVAILABLE');
  }
}
