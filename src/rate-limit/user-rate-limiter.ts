import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { BucketPolicy, readBucket, TOKEN_UNITS, userPolicy } from './token-bucket';

// token-bucket.ts's backlogAt, then takeToken once per request (the rule its unit tests pin down), applied
// atomically to one user's bucket at Redis's clock, so that every API process measures time alike.
// KEYS[1]: the bucket, a hash {backlog, at}. ARGV: rate per second, burst, TOKEN_UNITS, requests.
// Returns, per request in order, {1 admitted | 0 refused, the backlog after it}. Numbers are written with
// %.0f: Redis would turn a Lua number into text with 14 digits, and a microsecond clock has 16.
const TAKE_TOKENS_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local rate, burst, unit, requests = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local stored = redis.call('HMGET', KEYS[1], 'backlog', 'at')
local backlog = 0
if stored[1] then backlog = math.max(0, tonumber(stored[1]) - math.max(0, now - tonumber(stored[2])) * rate) end
local taken = false
local replies = {}
for i = 1, requests do
  local admitted = 0
  if backlog + unit <= burst * unit then
    backlog = backlog + unit
    admitted = 1
    taken = true
  end
  replies[i] = { admitted, string.format('%.0f', backlog) }
end
if taken then
  redis.call('HSET', KEYS[1], 'backlog', string.format('%.0f', backlog), 'at', string.format('%.0f', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(backlog / rate / 1000) + 1)
end
return replies
`;

/** The outcome of one request against its user's bucket. */
export interface RateDecision {
  admitted: boolean;
  policy: BucketPolicy;
  remaining: number;
  /** whole seconds until one more request is admitted: Retry-After when refused */
  secondsToNextToken: number;
}

interface TokenRequest {
  userId: string;
  policy: BucketPolicy;
}

type TakeTokensClient = {
  lvsTakeRateTokens(key: string, rate: number, burst: number, unit: number, requests: number): Promise<[0 | 1, string][]>;
};

/**
 * One token bucket per user, over all of the user's keys, in Redis: every API process takes from the same
 * bucket. The requests of one event-loop turn are taken together, one script call per user in the turn (not
 * one per request: a command costs ioredis and Redis about as much as the work it carries). Each call touches
 * one key: the user's bucket, under REDIS_PREFIX (whose hash tag, on a cluster, puts it in the service's slot).
 */
@Injectable()
export class UserRateLimiter {
  private readonly defaults: BucketPolicy;
  private readonly takes = perTurnLoader<TokenRequest, RateDecision>((requests) => this.takeForTurn(requests));

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.defaults = { ratePerSecond: config.get('RATE_LIMIT_PER_SECOND'), burst: config.get('RATE_LIMIT_BURST') };
    redis.client.defineCommand('lvsTakeRateTokens', { lua: TAKE_TOKENS_SCRIPT, numberOfKeys: 1 });
  }

  /** Takes a token for one request of the user; rateOverride is the user's own rate (null: the defaults). */
  take(userId: string, rateOverride: number | null): Promise<RateDecision> {
    return this.takes.load({ userId, policy: userPolicy(rateOverride, this.defaults) });
  }

  /** The turn's requests, grouped by user (and policy, should it change within the turn), in arrival order. */
  private async takeForTurn(requests: readonly TokenRequest[]): Promise<(RateDecision | Error)[]> {
    const groups = new Map<string, number[]>();
    requests.forEach(({ userId, policy }, index) => {
      const group = `${userId}:${policy.ratePerSecond}:${policy.burst}`;
      const indexes = groups.get(group);
      if (indexes) indexes.push(index);
      else groups.set(group, [index]);
    });
    const decisions: (RateDecision | Error)[] = new Array<RateDecision | Error>(requests.length);
    await Promise.all(
      [...groups.values()].map(async (indexes) => {
        const { userId, policy } = requests[indexes[0]];
        try {
          const replies = await (this.redis.client as unknown as TakeTokensClient).lvsTakeRateTokens(
            this.bucketKey(userId),
            policy.ratePerSecond,
            policy.burst,
            TOKEN_UNITS,
            indexes.length,
          );
          replies.forEach(([admitted, backlog], position) => {
            decisions[indexes[position]] = { admitted: admitted === 1, policy, ...readBucket(Number(backlog), policy) };
          });
        } catch (error) {
          for (const index of indexes) decisions[index] = error as Error;
        }
      }),
    );
    return decisions;
  }

  private bucketKey(userId: string): string {
    return this.redis.key('rl', `{u${userId}}`);
  }
}
