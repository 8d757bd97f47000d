import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';

export interface IdempotencyRecord {
  /** the number the key was first used with; a key never changes number */
  licenceNumber: string;
  /** the lookup job the key is tied to, once one was enqueued */
  jobId: string | null;
}

/** Idempotency keys, scoped per user, each bound to one licence number and its lookup job. */
@Injectable()
export class IdempotencyStore {
  private readonly ttlSeconds: number;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.get('IDEMPOTENCY_TTL_SECONDS');
  }

  /** Binds the key to the number unless it is bound already; returns the record as it stands. */
  async claim(userId: string, idempotencyKey: string, licenceNumber: string): Promise<IdempotencyRecord> {
    const key = this.recordKey(userId, idempotencyKey);
    const replies = await this.redis.client
      .multi()
      .hsetnx(key, 'licenceNumber', licenceNumber)
      .expire(key, this.ttlSeconds, 'NX')
      .hgetall(key)
      .exec();
    const record = (replies?.[2]?.[1] ?? {}) as Record<string, string>;
    return { licenceNumber: record.licenceNumber, jobId: record.jobId ?? null };
  }

  async attachJob(userId: string, idempotencyKey: string, jobId: string): Promise<void> {
    await this.redis.client.hset(this.recordKey(userId, idempotencyKey), 'jobId', jobId);
  }

  private recordKey(userId: string, idempotencyKey: string): string {
    // Hashed: client keys may be up to 255 characters of anything visible.
    const digest = createHash('sha256').update(idempotencyKey).digest('hex');
    return this.redis.key('idempotency', userId, digest);
  }
}
