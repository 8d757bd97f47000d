import { Injectable } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';

/**
 * The register canaries' state in Redis, shared by every process: each canary's last good answer (its baseline)
 * and the failures not yet acknowledged. Readiness reads the failures (register: drifted); the worker's register
 * watch writes both; `npm run admin -- canary acknowledge|rebaseline` clears them.
 */
@Injectable()
export class CanaryStore {
  private readonly baselinesKey: string;
  private readonly failuresKey: string;

  constructor(private readonly redis: RedisStore) {
    this.baselinesKey = redis.key('canary:baselines');
    this.failuresKey = redis.key('canary:failures');
  }

  async baseline<Answer>(licenceNumber: string): Promise<Answer | null> {
    const stored = await this.redis.client.hget(this.baselinesKey, licenceNumber);
    return stored === null ? null : (JSON.parse(stored) as Answer);
  }

  async setBaseline(licenceNumber: string, answer: object): Promise<void> {
    await this.redis.client.hset(this.baselinesKey, licenceNumber, JSON.stringify(answer));
  }

  /** Records a canary's failure; true only for the first since the last acknowledgement (a new episode: alert once). */
  async recordFailure(licenceNumber: string, reason: string, at: Date): Promise<boolean> {
    return (await this.redis.client.hsetnx(this.failuresKey, licenceNumber, JSON.stringify({ reason, at: at.toISOString() }))) === 1;
  }

  /** Whether some canary failure waits for an operator's acknowledgement. */
  async drifted(): Promise<boolean> {
    return (await this.redis.client.hlen(this.failuresKey)) > 0;
  }

  /** Clears the failures (readiness is no longer drifted; the next failure alerts again); answers how many. */
  async acknowledge(): Promise<number> {
    const failures = await this.redis.client.hlen(this.failuresKey);
    await this.redis.client.del(this.failuresKey);
    return failures;
  }

  /** Clears the failures and the baselines: each canary's next answer is its new baseline. */
  async rebaseline(): Promise<number> {
    const failures = await this.acknowledge();
    await this.redis.client.del(this.baselinesKey);
    return failures;
  }
}
