import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { BucketPolicy, readBucket, TOKEN_UNITS, userPolicy } from './token-bucket';

// token-bucket.ts's backlogAt then takeToken (the rule its unit tests pin down), applied atomically to one user's bucket at Redis's clock (so that
// every API process measures time alike). KEYS[1]: the bucket, a hash {backlog, at}. ARGV: rate per second,
// burst, TOKEN_UNITS. Returns {1 admitted | 0 refused, the backlog after}. Numbers are written with %.0f:
// Redis would turn a Lua number into text with 14 digits, and a microsecond clock has 16.
const TAKE_TOKEN_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local rate, burst, unit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local stored = redis.call('HMGET', KEYS[1], 'backlog', 'at')
local backlog = 0
if stored[1] then backlog = math.max(0, tonumber(stored[1]) - math.max(0, now - tonumber(stored[2])) * rate) end
if backlog + unit > burst * unit then return { 0, string.format('%.0f', backlog) } end
backlog = backlog + unit
redis.call('HSET', KEYS[1], 'backlog', string.format('%.0f', backlog), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(backlog / rate / 1000) + 1)
return { 1, string.format('%.0f', backlog) }
`;

/** The outcome of one request against its user's bucket. */
export interface RateDecision {
  admitted: boolean;
  policy: BucketPolicy;
  remaining: number;
  /** whole seconds until one more request is admitted: Retry-After when refused */
  secondsToNextToken: number;
}

/**
 * One token bucket per user, over all of the user's keys, in Redis: every API process takes from the same
 * bucket. One script call per request, on the auto-pipelined client; its key holds the user's hash tag, so
 * it lives in one Redis Cluster slot.
 */
@Injectable()
export class UserRateLimiter {
  private readonly defaults: BucketPolicy;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.defaults = { ratePerSecond: config.get('RATE_LIMIT_PER_SECOND'), burst: config.get('RATE_LIMIT_BURST') };
    redis.client.defineCommand('lvsTakeRateToken', { lua: TAKE_TOKEN_SCRIPT, numberOfKeys: 1 });
  }

  /** Takes a token for one request of the user; rateOverride is the user's own rate (null: the defaults). */
  async take(userId: string, rateOverride: number | null): Promise<RateDecision> {
    const policy = userPolicy(rateOverride, this.defaults);
    const client = this.redis.client as unknown as {
      lvsTakeRateToken(key: string, rate: number, burst: number, unit: number): Promise<[0 | 1, string]>;
    };
    const [admitted, backlog] = await client.lvsTakeRateToken(this.bucketKey(userId), policy.ratePerSecond, policy.burst, TOKEN_UNITS);
    return { admitted: admitted === 1, policy, ...readBucket(Number(backlog), policy) };
  }

  private bucketKey(userId: string): string {
    return this.redis.key('rl', `{u${userId}}`);
  }
}
