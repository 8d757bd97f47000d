import { Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { QuotaService } from '../quota/quota.service';
import { RedisStore } from '../redis/redis.module';
import { batchPerTurn } from '../runtime/batch-per-turn';
import { FinalResult } from './outcome-status';
import { ResultCache } from './result-cache';

/** What a verification request needs to know before anything else, read in one round trip. */
export interface Claim {
  /** the number the key was first used with; a key never changes number */
  licenceNumber: string;
  /** the lookup job the key is tied to, once one was enqueued */
  jobId: string | null;
  /** PostgreSQL has charged this user for the number this period, and no refund is coming */
  chargedThisPeriod: boolean;
  /** the cached result for the number asked about */
  cached: FinalResult | null;
}

// Binds the key to the number unless it is bound already, then reads the record, the charged
// marker and the cached result: a repeat verification needs nothing else.
// KEYS: idempotency record, charged markers of the user and period, cached result.
// ARGV: licence number, record TTL in seconds.
const CLAIM_SCRIPT = `
redis.call('HSETNX', KEYS[1], 'licenceNumber', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2], 'NX')
local record = redis.call('HMGET', KEYS[1], 'licenceNumber', 'jobId')
return { record[1], record[2], redis.call('HEXISTS', KEYS[2], ARGV[1]), redis.call('GET', KEYS[3]) }
`;

type ClaimReply = [string, string | null, 0 | 1, string | null];

interface ClaimRequest {
  userId: string;
  idempotencyKey: string;
  licenceNumber: string;
  period: string;
}

/** Idempotency keys, scoped per user, each bound to one licence number and its lookup job. */
@Injectable()
export class IdempotencyStore {
  private readonly ttlSeconds: number;
  private readonly claims = batchPerTurn<ClaimRequest, ClaimReply>((requests) => this.runClaims(requests));

  constructor(
    private readonly redis: RedisStore,
    private readonly quota: QuotaService,
    private readonly cache: ResultCache,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.get('IDEMPOTENCY_TTL_SECONDS');
    redis.client.defineCommand('lvsClaimIdempotencyKey', { numberOfKeys: 3, lua: CLAIM_SCRIPT });
  }

  /**
   * Binds the key to the number unless it is bound already, and returns the record as it stands
   * with the charged marker and the cached result for the number, in one Redis round trip.
   */
  async claim(userId: string, idempotencyKey: string, licenceNumber: string, period: string): Promise<Claim> {
    const [boundNumber, jobId, charged, cached] = await this.claims.load({ userId, idempotencyKey, licenceNumber, period });
    return {
      licenceNumber: boundNumber,
      jobId,
      chargedThisPeriod: charged === 1,
      cached: cached ? (JSON.parse(cached) as FinalResult) : null,
    };
  }

  /**
   * The claims of one turn, sent in one write: issued together, ioredis pipelines them (its auto-pipelining
   * only joins commands issued in the same tick, and each request reaches its claim in a tick of its own).
   */
  private runClaims(requests: readonly ClaimRequest[]): Promise<(ClaimReply | Error)[]> {
    const client = this.redis.client as unknown as {
      lvsClaimIdempotencyKey(...args: (string | number)[]): Promise<ClaimReply>;
    };
    return Promise.all(
      requests.map(({ userId, idempotencyKey, licenceNumber, period }) =>
        client
          .lvsClaimIdempotencyKey(
            this.recordKey(userId, idempotencyKey),
            this.quota.chargedMarkersKey(userId, period),
            this.cache.key(licenceNumber),
            licenceNumber,
            this.ttlSeconds,
          )
          .catch((error: Error) => error),
      ),
    );
  }

  async attachJob(userId: string, idempotencyKey: string, jobId: string): Promise<void> {
    await this.redis.client.hset(this.recordKey(userId, idempotencyKey), 'jobId', jobId);
  }

  private recordKey(userId: string, idempotencyKey: string): string {
    // Hashed: client keys may be up to 255 characters of anything visible.
    const digest = hash('sha256', idempotencyKey, 'hex');
    return this.redis.key('idempotency', userId, digest);
  }
}
