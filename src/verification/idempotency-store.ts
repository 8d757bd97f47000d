import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QuotaService } from '../quota/quota.service';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { ClaimReply, claimIdempotencyKeys } from './idempotency-claims.script';
import { idempotencyRecordId } from '../validation/idempotency-key';
import { FinalResult } from '../lookups/lookup-outcome';

/** What a verification request needs to know before anything else, read in one round trip. */
export interface Claim<Result = FinalResult> {
  /** the number (or a name search's quota unit) the key was first used with; a key never changes it */
  licenceNumber: string;
  /** the lookup job the key is tied to, once one was enqueued */
  jobId: string | null;
  /** PostgreSQL has charged this user for the number this period, and no refund is coming */
  chargedThisPeriod: boolean;
  /** the cached result for what was asked */
  cached: Result | null;
}

interface ClaimRequest {
  userId: string;
  idempotencyKey: string;
  licenceNumber: string;
  period: string;
  cacheKey: string;
}

/** Idempotency keys, scoped per user, each bound to one licence number and its lookup job. */
@Injectable()
export class IdempotencyStore {
  private readonly ttlSeconds: number;
  /** The claims of one event-loop turn run together at its end, in one script call (see runClaims). */
  private readonly claims = perTurnLoader<ClaimRequest, ClaimReply>((requests) => this.runClaims(requests));

  constructor(
    private readonly redis: RedisStore,
    private readonly quota: QuotaService,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.get('IDEMPOTENCY_TTL_SECONDS');
  }

  /**
   * Binds the key to the number unless it is bound already, and returns the record as it stands
   * with the charged marker and the cached result under `cacheKey` (the subject's), in one Redis round trip.
   */
  async claim<Result = FinalResult>(
    userId: string,
    idempotencyKey: string,
    licenceNumber: string,
    period: string,
    cacheKey: string,
  ): Promise<Claim<Result>> {
    const [boundNumber, jobId, charged, cached] = await this.claims.load({ userId, idempotencyKey, licenceNumber, period, cacheKey });
    return {
      licenceNumber: boundNumber,
      jobId,
      chargedThisPeriod: charged === 1,
      cached: cached ? (JSON.parse(cached) as Result) : null,
    };
  }

  /**
   * The claims of one turn, in one script call: one command for Redis to run and for ioredis to encode
   * and decode, where each claim's own command cost both about as much as the claim itself. A claim that
   * failed comes back as its ReplyError, which fails only that claim's load.
   */
  private async runClaims(requests: readonly ClaimRequest[]): Promise<(ClaimReply | Error)[]> {
    const keys = requests.flatMap(({ userId, idempotencyKey, period, cacheKey }) => [
      this.recordKey(userId, idempotencyKey),
      this.quota.chargedMarkersKey(userId, period),
      cacheKey,
    ]);
    return claimIdempotencyKeys.run(this.redis.client, keys, [this.ttlSeconds, ...requests.map((request) => request.licenceNumber)]);
  }

  async attachJob(userId: string, idempotencyKey: string, jobId: string): Promise<void> {
    await this.redis.client.hset(this.recordKey(userId, idempotencyKey), 'jobId', jobId);
  }

  /** The key's record: a verification record's id is kept in it too, so that a replay answers the same one (EvidenceRecorder). */
  recordKey(userId: string, idempotencyKey: string): string {
    return this.redis.key('idempotency', userId, idempotencyRecordId(idempotencyKey));
  }
}
