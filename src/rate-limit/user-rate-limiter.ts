import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { takeRateTokens } from './rate-tokens.script';
import { BucketPolicy, readBucket, TOKEN_UNITS, userPolicy } from './token-bucket';

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
          const replies = await takeRateTokens.run(
            this.redis.client,
            [this.bucketKey(userId)],
            [policy.ratePerSecond, policy.burst, TOKEN_UNITS, indexes.length],
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
