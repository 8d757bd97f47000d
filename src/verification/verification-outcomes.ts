import { Injectable } from '@nestjs/common';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { QuotaService } from '../quota/quota.service';

/** What a verification (verify or verify-holder) answered, as its body's status says; in the Overview's order. */
export const VERIFICATION_ANSWERS = ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING'] as const;
export type VerificationAnswer = (typeof VERIFICATION_ANSWERS)[number];

/** A month's hash outlives the month by one more, so that the first hours of a month still find the last one. */
const KEPT_SECONDS = 62 * 24 * 3600;

interface Counted {
  key: string;
  answer: VerificationAnswer;
}

/** The turn's answers as increments: per hash, per answer, how many. */
export function tallyTurn(answers: readonly Counted[]): Map<string, Map<VerificationAnswer, number>> {
  const tally = new Map<string, Map<VerificationAnswer, number>>();
  for (const { key, answer } of answers) {
    const counts = tally.get(key) ?? new Map<VerificationAnswer, number>();
    counts.set(answer, (counts.get(answer) ?? 0) + 1);
    tally.set(key, counts);
  }
  return tally;
}

/**
 * Each user's verifications of the billing month by answer, for the console's Overview: one Redis hash per user
 * and month. The answers of one event-loop turn are counted in one pipeline, after they are sent and awaited by no
 * request, so a Redis fault loses counts, never an answer. A figure for people to read, not for billing: the quota
 * is counted in PostgreSQL.
 */
@Injectable()
export class VerificationOutcomes {
  private readonly counts = perTurnLoader<Counted, void>((answers) => this.countTurn(answers));

  constructor(
    private readonly redis: RedisStore,
    private readonly quota: QuotaService,
  ) {}

  count(userId: string, answer: VerificationAnswer): void {
    void this.counts.load({ key: this.key(userId, this.quota.currentPeriod()), answer }).catch(() => undefined);
  }

  /** The month's counts of the user, every answer present (0 when none). */
  async read(userId: string, period: string): Promise<Record<VerificationAnswer, number>> {
    const stored = await this.redis.client.hgetall(this.key(userId, period));
    return Object.fromEntries(VERIFICATION_ANSWERS.map((answer) => [answer, Number(stored[answer] ?? 0)])) as Record<VerificationAnswer, number>;
  }

  private async countTurn(answers: readonly Counted[]): Promise<void[]> {
    const pipeline = this.redis.client.pipeline();
    for (const [key, counts] of tallyTurn(answers)) {
      for (const [answer, count] of counts) pipeline.hincrby(key, answer, count);
      pipeline.expire(key, KEPT_SECONDS);
    }
    await pipeline.exec();
    return answers.map(() => undefined);
  }

  private key(userId: string, period: string): string {
    return this.redis.key('answers', period, userId);
  }
}
