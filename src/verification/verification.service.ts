import { Injectable, Logger } from '@nestjs/common';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import type { FinalResult } from '../lookups/lookup-outcome';
import { LookupSubject, numberSubject } from '../lookups/lookup-subject';
import { LookupAnswer, LookupService } from '../lookups/lookup.service';
import type { LookupJobResult } from '../lookups/lookup-outcome';
import { Charge, QuotaService } from '../quota/quota.service';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import { deriveIdempotencyKey } from '../validation/idempotency-key';
import { IdempotencyStore } from './idempotency-store';

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

/** A lookup's answer as a request's result: PENDING while the register has not answered. */
export function answerResult<Result extends LookupJobResult>(answer: LookupAnswer<Result>): { result: Result | 'PENDING'; source: 'cache' | 'register' } {
  return answer.state === 'answered' ? { result: answer.result, source: answer.source } : { result: 'PENDING', source: 'register' };
}

@Injectable()
export class VerificationService {
  private readonly logger = new Logger('Verification');

  constructor(
    private readonly quota: QuotaService,
    private readonly idempotency: IdempotencyStore,
    private readonly lookups: LookupService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Verifies a number for a user: answers from the cache, or joins the lookup already tied to the
   * idempotency key, or looks it up (LookupService) and waits up to the timeout.
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
    return this.answer<FinalResult>(user, numberSubject(licenceNumber), clientKey, requestId, options);
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

  private async answerOrThrow<Result extends LookupJobResult>(
    user: AuthenticatedUser,
    subject: LookupSubject,
    clientKey: string | undefined,
    requestId: string,
    { deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS'), markCachedCharge = true }: VerifyOptions,
  ): Promise<Verification<Result>> {
    // The claim reads the cache itself: under the key of the caller's world (a test key's answers are its own).
    const idempotencyKey = clientKey ?? deriveIdempotencyKey(user.userId, subject.unit);
    const cacheKey = this.lookups.cacheKey(subject, user);
    const claim = await this.idempotency.claim<Result>(user.userId, idempotencyKey, subject.unit, this.quota.currentPeriod(), cacheKey);
    if (claim.licenceNumber !== subject.unit) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKeyReused);
    }
    // A cached result is final, so a job tied to the key has nothing better to offer.
    if (claim.cached) {
      const charge = claim.chargedThisPeriod ? null : await this.chargeForCachedResult(user, subject.unit, markCachedCharge);
      return { result: claim.cached, source: 'cache', idempotencyKey, newCharge: charge?.isNew ? charge : null };
    }
    const answer = await this.lookups.lookup<Result>({
      subject,
      user,
      kind: 'live',
      deadline,
      requestId,
      cache: 'read', // the claim has just read it
      payment: claim.chargedThisPeriod ? null : 'charge',
      joinJob: claim.jobId,
      onQueued: (jobId) => this.idempotency.attachJob(user.userId, idempotencyKey, jobId),
    });
    return { ...answerResult(answer), idempotencyKey, newCharge: answer.newCharge };
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
    this.quota.markCharged(charge).catch((error: unknown) => this.logger.warn(`Marking a charge in Redis failed: ${(error as Error).message}`));
  }
}

function asServiceUnavailable(error: unknown): never {
  throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
}
