import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { isRedisUnavailable } from '../redis/redis-unavailable';
import { clientGroup } from './client-group';

const WINDOW_MS = 60_000;

// KEYS[1]: an address's failure counter. ARGV[1]: failures allowed. Returns the milliseconds until the
// address may try again, or 0 while it is under the limit.
const BLOCKED_FOR_SCRIPT = `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures < tonumber(ARGV[1]) then return 0 end
return math.max(redis.call('PTTL', KEYS[1]), 1)
`;

// KEYS[1]: an address's failure counter, counted in a fixed minute from its first failure.
const COUNT_FAILURE_SCRIPT = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS}) end
return failures
`;

/**
 * Failed authentications per client address (an IPv6 client by its /64), counted in Redis so that every API process sees the same
 * count. An address over AUTH_FAILURES_PER_MINUTE is refused before its key is looked up. With Redis
 * unreachable nothing is counted or refused: authentication itself needs only PostgreSQL, and the
 * quota usage route must keep answering as it did.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger('AuthFailureLimiter');
  private readonly allowed: number;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.allowed = config.get('AUTH_FAILURES_PER_MINUTE');
    redis.client.defineCommand('lvsAuthBlockedFor', { lua: BLOCKED_FOR_SCRIPT, numberOfKeys: 1 });
    redis.client.defineCommand('lvsCountAuthFailure', { lua: COUNT_FAILURE_SCRIPT, numberOfKeys: 1 });
  }

  /** Whole seconds this address must wait before it may try a key again; 0 when it may now. */
  async secondsBlocked(address: string): Promise<number> {
    const client = this.redis.client as unknown as { lvsAuthBlockedFor(key: string, allowed: number): Promise<number> };
    const milliseconds = await this.unlessRedisIsDown(client.lvsAuthBlockedFor(this.counterKey(address), this.allowed), 0);
    return Math.ceil(milliseconds / 1000);
  }

  async countFailure(address: string): Promise<void> {
    const client = this.redis.client as unknown as { lvsCountAuthFailure(key: string): Promise<number> };
    await this.unlessRedisIsDown(client.lvsCountAuthFailure(this.counterKey(address)), 0);
  }

  private unlessRedisIsDown<T>(command: Promise<T>, fallback: T): Promise<T> {
    return command.catch((error: unknown) => {
      if (!isRedisUnavailable(error)) throw error;
      this.logger.debug('Redis unavailable: authentication failures are not limited meanwhile');
      return fallback;
    });
  }

  /** One counter per client group: an IPv6 client's whole /64 counts as one address. */
  private counterKey(address: string): string {
    return this.redis.key('auth-failures', `{a${clientGroup(address)}}`);
  }
}
