import { Injectable } from '@nestjs/common';
import type { Result } from 'ioredis';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';
import { endpointKeyParts, MANUAL_SEND_INTERVAL_MS, wholeSecondsToWait } from './webhook-limits';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    lvsTakeManualSend(lastSend: string, now: number, interval: number): Result<number, Context>;
  }
}

// KEYS[1]: when the endpoint's last manual send went (clock ms). Records this one and answers 0 when the
// interval has passed since; else answers the milliseconds left (at most the interval, whatever the clocks say).
const TAKE_MANUAL_SEND = `
local last = tonumber(redis.call('GET', KEYS[1]))
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
if last and now - last < interval then return math.min(interval, interval - (now - last)) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 0`;

/**
 * One manual send (test ping or replay) per endpoint per MANUAL_SEND_INTERVAL_MS, shared by every API
 * process. Counted on the service clock, like quota periods, so that tests can move past the interval.
 */
@Injectable()
export class ManualSendLimit {
  constructor(
    private readonly redis: RedisStore,
    private readonly clock: Clock,
  ) {
    redis.client.defineCommand('lvsTakeManualSend', { numberOfKeys: 1, lua: TAKE_MANUAL_SEND });
  }

  /** Takes the endpoint's turn, or throws RATE_LIMITED with Retry-After when its last send was too recent. */
  async take(userId: string, endpointId: string): Promise<void> {
    const key = this.redis.key(...endpointKeyParts('manual-send', userId, endpointId));
    const waitMs = await this.redis.client.lvsTakeManualSend(key, this.clock.now().getTime(), MANUAL_SEND_INTERVAL_MS);
    if (waitMs > 0) throw ApiError.rateLimited(wholeSecondsToWait(waitMs));
  }
}
