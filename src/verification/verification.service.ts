import { Injectable, Logger } from '@nestjs/common';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { Charge, QuotaService } from '../quota/quota.service';
import { isRedisUnavailable } from '../redis/redis-unavailable';
import { deriveIdempotencyKey } from './idempotency-key';
import { IdempotencyStore } from './idempotency-store';
import { LookupAdmission } from '../lookups/lookup-admission';
import { LookupPayers } from '../lookups/lookup-payers';
import { LookupQueue } from '../lookups/lookup-queue';
import { LookupSettlement } from '../lookups/lookup-settlement';
import { FinalResult, lookupFailureCode } from '../lookups/lookup-outcome';

export interface Verification {
  result: FinalResult | 'PENDING';
  source: 'cache' | 'register';
  idempotencyKey: string;
}

@Injectable()
export class VerificationService {
  private readonly logger = new Logger('Verification');
  /** Longer than a charge and the two Redis commands after it can take, with room for a slow event loop. */
  private readonly intentLeaseMs: number;

  constructor(
    private readonly quota: QuotaService,
    private readonly idempotency: IdempotencyStore,
    private readonly payers: LookupPayers,
    private readonly lookups: LookupQueue,
    private readonly admission: LookupAdmission,
    private readonly settlement: LookupSettlement,
    private readonly config: AppConfig,
  ) {
    this.intentLeaseMs = config.get('DATABASE_CHARGE_TIMEOUT_MS') + 2 * config.get('DEPENDENCY_TIMEOUT_MS') + 5000;
  }

  /**
   * Verifies a number for a user: answers from the cache, or joins the lookup already tied to the
   * idempotency key, or enqueues a lookup (single flight per number) and waits up to the timeout.
   * A repeat of a number charged this period costs one Redis round trip and no database query.
   * The request id travels into the lookup job, so that the worker's lines can be matched to the request.
   * Redis down or frozen is SERVICE_UNAVAILABLE within DEPENDENCY_TIMEOUT_MS, with nothing charged.
   */
  verify(user: AuthenticatedUser, licenceNumber: string, clientKey: string | undefined, requestId: string): Promise<Verification> {
    return this.verifyOrThrow(user, licenceNumber, clientKey, requestId).catch((error: unknown) => {
      throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
    });
  }

  private async verifyOrThrow(
    user: AuthenticatedUser,
    licenceNumber: string,
    clientKey: string | undefined,
    requestId: string,
  ): Promise<Verification> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    const idempotencyKey = clientKey ?? deriveIdempotencyKey(user.userId, licenceNumber);
    const claim = await this.idempotency.claim(user.userId, idempotencyKey, licenceNumber, this.quota.currentPeriod());
    if (claim.licenceNumber !== licenceNumber) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKeyReused);
    }
    // A cached result is final, so a job tied to the key has nothing better to offer.
    if (claim.cached) {
      if (!claim.chargedThisPeriod) await this.chargeForCachedResult(user, licenceNumber);
      return { result: claim.cached, source: 'cache', idempotencyKey };
    }
    if (claim.jobId && (await this.lookups.isInFlight(claim.jobId))) {
      return this.awaitLookup(claim.jobId, deadline, idempotencyKey);
    }

    await this.admission.admitLive(user.userId);
    const charge = claim.chargedThisPeriod ? null : await this.chargeWithIntent(user, licenceNumber);
    let jobId: string;
    try {
      jobId = await this.lookups.enqueue(licenceNumber, { requestId });
      if (charge?.isNew) await this.payers.add(jobId, charge);
      await this.idempotency.attachJob(user.userId, idempotencyKey, jobId);
    } catch (error) {
      if (charge) {
        await this.quota.refund(charge);
        await this.dropIntent(charge);
      }
      throw error;
    }
    return this.awaitLookup(jobId, deadline, idempotencyKey);
  }

  /**
   * Charges a number for a new lookup, having first recorded the intent to refund it: should this process die
   * before the charge's payer record is written, the sweep of any process refunds it (the client had no answer).
   */
  private async chargeWithIntent(user: AuthenticatedUser, licenceNumber: string): Promise<Charge> {
    const planned = this.quota.plan(user.userId, licenceNumber);
    await this.payers.intend(planned, this.intentLeaseMs);
    try {
      const charge = await this.quota.chargeOnce(user, licenceNumber, planned);
      if (!charge.isNew) await this.dropIntent(planned);
      return charge;
    } catch (error) {
      // Nothing was committed: the intent has nothing to refund.
      await this.dropIntent(planned);
      throw error;
    }
  }

  /**
   * Forgets an intent whose charge needs no sweep. Best effort: one left behind only makes the sweep refund a
   * charge id that no ledger row carries (any more), which changes nothing.
   */
  private async dropIntent(charge: Charge): Promise<void> {
    await this.payers.dropIntent(charge).catch(() => undefined);
  }

  /**
   * A cached answer is never refunded, so its charge can be marked as final. The marker is not
   * awaited: the answer does not depend on it, and a lost one costs only a quota_charge_once later.
   */
  private async chargeForCachedResult(user: AuthenticatedUser, licenceNumber: string): Promise<void> {
    const charge = await this.quota.chargeOnce(user, licenceNumber);
    this.quota
      .markCharged(charge)
      .catch((error: unknown) => this.logger.warn(`Marking a charge in Redis failed: ${(error as Error).message}`));
  }

  private async awaitLookup(jobId: string, deadline: number, idempotencyKey: string): Promise<Verification> {
    const wait = await this.lookups.waitFor(jobId, Math.max(deadline - Date.now(), 0)).catch((error: unknown) => {
      // The lookup is queued (and maybe charged): the client learns its result by retrying, as after a 202.
      if (isRedisUnavailable(error)) return { state: 'pending' as const };
      throw error;
    });
    switch (wait.state) {
      case 'completed':
        return { result: wait.result, source: 'register', idempotencyKey };
      case 'pending':
        return { result: 'PENDING', source: 'register', idempotencyKey };
      case 'failed':
        await this.settlement.refund(jobId);
        throw new ApiError(lookupFailureCode(wait.reason));
    }
  }
}
