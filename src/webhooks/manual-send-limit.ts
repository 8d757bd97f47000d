import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';
import { takeManualSend } from './manual-sends.script';
import { endpointKeyParts, MANUAL_SEND_INTERVAL_MS, wholeSecondsToWait } from './webhook-limits';

/**
 * One manual send (test ping or replay) per endpoint per MANUAL_SEND_INTERVAL_MS, shared by every API
 * process. Counted on the service clock, like quota periods, so that tests can move past the interval.
 */
@Injectable()
export class ManualSendLimit {
  constructor(
    private readonly redis: RedisStore,
    private readonly clock: Clock,
  ) {}

  /** Takes the endpoint's turn, or throws RATE_LIMITED with Retry-After when its last send was too recent. */
  async take(userId: string, endpointId: string): Promise<void> {
    const key = this.redis.key(...endpointKeyParts('manual-send', userId, endpointId));
    const waitMs = await takeManualSend.run(this.redis.client, [key], [this.clock.now().getTime(), MANUAL_SEND_INTERVAL_MS]);
    if (waitMs > 0) throw ApiError.rateLimited(wholeSecondsToWait(waitMs));
  }
}
