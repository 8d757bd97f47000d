import { Injectable, Logger } from '@nestjs/common';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { QuotaService } from '../quota/quota.service';
import { deriveIdempotencyKey } from './idempotency-key';
import { IdempotencyStore } from './idempotency-store';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';
import { FinalResult, lookupFailureCode } from './outcome-status';
import { ResultCache } from './result-cache';

export interface Verification {
  result: FinalResult | 'PENDING';
  source: 'cache' | 'register';
  idempotencyKey: string;
}

@Injectable()
export class VerificationService {
  private readonly logger = new Logger('Verification');
  private readonly refunds = new Map<string, Promise<void>>();

  constructor(
    private readonly quota: QuotaService,
    private readonly cache: ResultCache,
    private readonly idempotency: IdempotencyStore,
    private readonly payers: LookupPayers,
    private readonly lookups: LookupQueue,
    private readonly config: AppConfig,
  ) {
    // A job can fail after every client got 202 and left: its payers are refunded all the same.
    // After a success they owe what they paid, and the record of them can go.
    this.lookups.onLookupFinished((jobId, outcome) => {
      const settle = outcome === 'failed' ? this.refundLookup(jobId) : this.payers.forget(jobId);
      settle.catch((error: unknown) =>
        this.logger.error(`Settling payers of lookup ${jobId} (${outcome}) failed: ${(error as Error).message}`),
      );
    });
  }

  /**
   * Verifies a number for a user: joins the lookup already tied to the idempotency key, or answers
   * from the cache, or enqueues a lookup (single flight per number) and waits up to the timeout.
   */
  async verify(user: AuthenticatedUser, licenceNumber: string, clientKey?: string): Promise<Verification> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    const idempotencyKey = clientKey ?? deriveIdempotencyKey(user.userId, licenceNumber);
    const record = await this.idempotency.claim(user.userId, idempotencyKey, licenceNumber);
    if (record.licenceNumber !== licenceNumber) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKeyReused);
    }
    if (record.jobId && (await this.lookups.isInFlight(record.jobId))) {
      return this.awaitLookup(record.jobId, deadline, idempotencyKey);
    }

    const charge = await this.quota.chargeOnce(user, licenceNumber);
    let jobId: string;
    try {
      const cached = await this.cache.get(licenceNumber);
      if (cached) return { result: cached, source: 'cache', idempotencyKey };
      jobId = await this.lookups.enqueue(licenceNumber);
      if (charge.isNew) await this.payers.add(jobId, charge);
      await this.idempotency.attachJob(user.userId, idempotencyKey, jobId);
    } catch (error) {
      await this.quota.refund(charge);
      throw error;
    }
    return this.awaitLookup(jobId, deadline, idempotencyKey);
  }

  private async awaitLookup(jobId: string, deadline: number, idempotencyKey: string): Promise<Verification> {
    const wait = await this.lookups.waitFor(jobId, Math.max(deadline - Date.now(), 0));
    switch (wait.state) {
      case 'completed':
        return { result: wait.result, source: 'register', idempotencyKey };
      case 'pending':
        return { result: 'PENDING', source: 'register', idempotencyKey };
      case 'failed':
        await this.refundLookup(jobId);
        throw new ApiError(lookupFailureCode(wait.reason));
    }
  }

  /** Refunds every new charge waiting on a failed lookup; concurrent callers share one run. */
  private refundLookup(jobId: string): Promise<void> {
    let running = this.refunds.get(jobId);
    if (!running) {
      running = (async () => {
        for (const charge of await this.payers.take(jobId)) await this.quota.refund(charge);
      })().finally(() => this.refunds.delete(jobId));
      this.refunds.set(jobId, running);
    }
    return running;
  }
}
