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
import { LookupJobResult } from '../lookups/lookups.queue';
import { ResultCache } from '../lookups/result-cache';

/** What a request asks the lookup pipeline for: a licence number, or a name search. */
export interface LookupSubject {
  /** What the quota counts once per user and month, and what an idempotency key is bound to. */
  unit: string;
  /** Where its final result is cached (ResultCache). */
  cacheKey: string;
  /** Queues its lookup (or joins the one in flight) at the live priority; returns the job id. */
  enqueue(requestId: string): Promise<string>;
}

export interface Verification<Result extends LookupJobResult = FinalResult> {
  result: Result | 'PENDING';
  source: 'cache' | 'register';
  idempotencyKey: string;
  /** The charge this request made, new this period (a refund undoes it); null when the answer was free. */
  newCharge: Charge | null;
}

export interface VerifyOptions {
  /** Epoch ms by which to answer, PENDING if need be; default VERIFY_TIMEOUT_MS from now. */
  deadline?: number;
  /**
   * Whether a charge for a cached result is marked final in Redis at once (default). A caller that may still
   * refund it (a holder check whose date-of-birth search can fail) marks it itself once the answer is final.
   */
  markCachedCharge?: boolean;
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
    private readonly cache: ResultCache,
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
  verify(
    user: AuthenticatedUser,
    licenceNumber: string,
    clientKey: string | undefined,
    requestId: string,
    options: VerifyOptions = {},
  ): Promise<Verification> {
    const subject: LookupSubject = {
      unit: licenceNumber,
      cacheKey: this.cache.key(licenceNumber),
      enqueue: (id) => this.lookups.enqueue(licenceNumber, { requestId: id }),
    };
    return this.answer<FinalResult>(user, subject, clientKey, requestId, options);
  }

  /** verify's protocol (cache, idempotency, charge once per unit and month, wait, PENDING) for any subject. */
  answer<Result extends LookupJobResult>(
    user: AuthenticatedUser,
    subject: LookupSubject,
    clientKey: string | undefined,
    requestId: string,
    options: VerifyOptions = {},
  ): Promise<Verification<Result>> {
    return this.answerOrThrow<Result>(user, subject, clientKey, requestId, options).catch(asServiceUnavailable);
  }

  /**
   * A lookup that nobody is charged for by itself (a holder check's date-of-birth search): from the cache, or
   * queued and waited for until the deadline. `payer`, when given, is refunded if the lookup fails, by whichever
   * process sees it fail; a refusal at admission refunds it at once.
   */
  lookupUncharged<Result extends LookupJobResult>(
    user: AuthenticatedUser,
    subject: LookupSubject,
    deadline: number,
    requestId: string,
    payer: Charge | null,
  ): Promise<{ result: Result | 'PENDING'; source: 'cache' | 'register' }> {
    return this.lookupUnchargedOrThrow<Result>(user, subject, deadline, requestId, payer).catch(asServiceUnavailable);
  }

  private async answerOrThrow<Result extends LookupJobResult>(
    user: AuthenticatedUser,
    subject: LookupSubject,
    clientKey: string | undefined,
    requestId: string,
    { deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS'), markCachedCharge = true }: VerifyOptions,
  ): Promise<Verification<Result>> {
    const idempotencyKey = clientKey ?? deriveIdempotencyKey(user.userId, subject.unit);
    const claim = await this.idempotency.claim<Result>(user.userId, idempotencyKey, subject.unit, this.quota.currentPeriod(), subject.cacheKey);
    if (claim.licenceNumber !== subject.unit) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKeyReused);
    }
    // A cached result is final, so a job tied to the key has nothing better to offer.
    if (claim.cached) {
      const charge = claim.chargedThisPeriod ? null : await this.chargeForCachedResult(user, subject.unit, markCachedCharge);
      return { result: claim.cached, source: 'cache', idempotencyKey, newCharge: charge?.isNew ? charge : null };
    }
    if (claim.jobId && (await this.lookups.isInFlight(claim.jobId))) {
      return { ...(await this.awaitLookup<Result>(claim.jobId, deadline)), idempotencyKey, newCharge: null };
    }
    await this.admission.admitLive(user.userId);
    const charge = claim.chargedThisPeriod ? null : await this.chargeWithIntent(user, subject.unit);
    let jobId: string;
    try {
      jobId = await subject.enqueue(requestId);
      if (charge?.isNew) await this.payers.add(jobId, charge);
      await this.idempotency.attachJob(user.userId, idempotencyKey, jobId);
    } catch (error) {
      if (charge) {
        await this.quota.refund(charge);
        await this.dropIntent(charge);
      }
      throw error;
    }
    return { ...(await this.awaitLookup<Result>(jobId, deadline)), idempotencyKey, newCharge: charge?.isNew ? charge : null };
  }

  private async lookupUnchargedOrThrow<Result extends LookupJobResult>(
    user: AuthenticatedUser,
    subject: LookupSubject,
    deadline: number,
    requestId: string,
    payer: Charge | null,
  ): Promise<{ result: Result | 'PENDING'; source: 'cache' | 'register' }> {
    const cached = await this.cache.getByKey<Result>(subject.cacheKey);
    if (cached) return { result: cached, source: 'cache' };
    let jobId: string;
    try {
      await this.admission.admitLive(user.userId);
      jobId = await subject.enqueue(requestId);
      if (payer) await this.payers.add(jobId, payer);
    } catch (error) {
      if (payer) await this.quota.refund(payer);
      throw error;
    }
    return this.awaitLookup<Result>(jobId, deadline);
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
   * awaited: the answer does not depend on it, and a lost one costs only a charge statement later.
   */
  private async chargeForCachedResult(user: AuthenticatedUser, unit: string, mark: boolean): Promise<Charge> {
    const charge = await this.quota.chargeOnce(user, unit);
    if (mark) this.markChargedLater(charge);
    return charge;
  }

  /** Marks a charge as final without making the answer wait for it (see chargeForCachedResult). */
  markChargedLater(charge: Charge): void {
    this.quota
      .markCharged(charge)
      .catch((error: unknown) => this.logger.warn(`Marking a charge in Redis failed: ${(error as Error).message}`));
  }

  private async awaitLookup<Result extends LookupJobResult>(
    jobId: string,
    deadline: number,
  ): Promise<{ result: Result | 'PENDING'; source: 'register' }> {
    const wait = await this.lookups.waitFor<Result>(jobId, Math.max(deadline - Date.now(), 0)).catch((error: unknown) => {
      // The lookup is queued (and maybe charged): the client learns its result by retrying, as after a 202.
      if (isRedisUnavailable(error)) return { state: 'pending' as const };
      throw error;
    });
    switch (wait.state) {
      case 'completed':
        return { result: wait.result, source: 'register' };
      case 'pending':
        return { result: 'PENDING', source: 'register' };
      case 'failed':
        await this.settlement.refund(jobId);
        throw new ApiError(lookupFailureCode(wait.reason));
    }
  }
}

function asServiceUnavailable(error: unknown): never {
  throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
}
