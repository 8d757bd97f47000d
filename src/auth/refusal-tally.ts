import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../clock/clock';
import type { ErrorCode } from '../errors/error-codes';
import { RefusalCounter } from '../errors/refusal-counter';
import { RedisStore } from '../redis/redis-store';
import type { RequestWithUser } from './authenticated-user';

/**
 * The refusals counted per partner and day: the quota, the rate limit, the live-lookup bound (SERVICE_UNAVAILABLE,
 * which an upstream outage also answers) and the watchlist's cap.
 */
export const COUNTED_REFUSALS = ['QUOTA_EXCEEDED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'WATCHLIST_FULL'] as const satisfies readonly ErrorCode[];
export type CountedRefusal = (typeof COUNTED_REFUSALS)[number];

const DAY_MS = 86_400_000;
/** A day's hash outlives the week the partner page shows by a day, so that no shown day has expired. */
export const REFUSAL_DAY_TTL_SECONDS = 8 * 86_400;
export const REFUSAL_DAYS_SHOWN = 7;

/** Whether an answer's code is a refusal counted per partner (the caller counts only a known partner's). */
export function isCountedRefusal(code: string): code is CountedRefusal {
  return (COUNTED_REFUSALS as readonly string[]).includes(code);
}

/** The UTC days from `days - 1` days before `now` to `now`'s own, oldest first, as YYYY-MM-DD. */
export function refusalDays(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, index) => new Date(now.getTime() - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10));
}

/** One day's row of the partner page: each counted code's refusals (0 for none). */
export type RefusalDay = { day: string } & Record<CountedRefusal, number>;

/** HMGET's answer for one day (the codes in COUNTED_REFUSALS' order) as that day's row. */
export function refusalRow(day: string, counts: (string | null)[]): RefusalDay {
  const row = { day } as RefusalDay;
  COUNTED_REFUSALS.forEach((code, index) => (row[code] = Number(counts[index] ?? 0)));
  return row;
}

/**
 * Refusals per partner and day, in one Redis hash per day (field: partner and code) that expires a day after the
 * week shown. Counted only when refusing, off the path of an answer that succeeds; a count that fails is dropped,
 * never the refusal's answer.
 */
@Injectable()
export class RefusalTally extends RefusalCounter {
  constructor(
    private readonly redis: RedisStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  count(request: FastifyRequest & RequestWithUser, code: string): void {
    const userId = request.authenticatedUser?.userId;
    if (userId === undefined || !isCountedRefusal(code)) return;
    const key = this.dayKey(refusalDays(this.clock.now(), 1)[0]);
    void this.redis.client
      .multi()
      .hincrby(key, `${userId}:${code}`, 1)
      .expire(key, REFUSAL_DAY_TTL_SECONDS)
      .exec()
      .catch(() => undefined);
  }

  /** The partner's refusals on each of the last REFUSAL_DAYS_SHOWN days, oldest first. */
  recent(userId: string, now: Date): Promise<RefusalDay[]> {
    const fields = COUNTED_REFUSALS.map((code) => `${userId}:${code}`);
    return Promise.all(
      refusalDays(now, REFUSAL_DAYS_SHOWN).map(async (day) => refusalRow(day, await this.redis.client.hmget(this.dayKey(day), ...fields))),
    );
  }

  private dayKey(day: string): string {
    return this.redis.key('refusals', day);
  }
}
