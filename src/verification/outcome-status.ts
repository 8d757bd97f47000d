import type { LookupOutcome, RegisterLicence } from '@lvs/register';
import type { ErrorCode } from '../errors/error-codes';

export type FinalStatus = 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS';
export type VerificationStatus = FinalStatus | 'PENDING';

/** A finished verification, as cached and as returned by the worker. */
export interface FinalResult {
  status: FinalStatus;
  licence: RegisterLicence | null;
  /** ISO time the register was asked */
  checkedAt: string;
}

export interface VerificationBody {
  status: VerificationStatus;
  message: string;
  licence: RegisterLicence | null;
  checkedAt: string | null;
}

const STATUS_MESSAGES: Record<VerificationStatus, string> = {
  FOUND: 'Licence found',
  NOT_FOUND: 'No licence matches the number',
  TOO_MANY_RESULTS: 'Several licences match the number; the register data needs checking',
  PENDING: 'Verification is still in progress; retry with the same Idempotency-Key',
};

const HTTP_STATUS: Record<VerificationStatus, number> = {
  FOUND: 200,
  NOT_FOUND: 404,
  TOO_MANY_RESULTS: 409,
  PENDING: 202,
};

/** The register client's outcome as the result our API keeps and answers. */
export function toFinalResult(outcome: LookupOutcome, checkedAt: Date): FinalResult {
  const checked = checkedAt.toISOString();
  switch (outcome.kind) {
    case 'found':
      return { status: 'FOUND', licence: outcome.licence, checkedAt: checked };
    case 'not_found':
      return { status: 'NOT_FOUND', licence: null, checkedAt: checked };
    case 'too_many_results':
      return { status: 'TOO_MANY_RESULTS', licence: null, checkedAt: checked };
  }
}

/** The one place that maps a verification to its HTTP status and body. */
export function verificationAnswer(result: FinalResult | 'PENDING'): { httpStatus: number; body: VerificationBody } {
  if (result === 'PENDING') {
    return {
      httpStatus: HTTP_STATUS.PENDING,
      body: { status: 'PENDING', message: STATUS_MESSAGES.PENDING, licence: null, checkedAt: null },
    };
  }
  return {
    httpStatus: HTTP_STATUS[result.status],
    body: {
      status: result.status,
      message: STATUS_MESSAGES[result.status],
      licence: result.status === 'FOUND' ? result.licence : null,
      checkedAt: result.checkedAt,
    },
  };
}

/** How long a result may be served from cache: found results live longer than misses. */
export function cacheTtlSeconds(status: FinalStatus, ttl: { found: number; notFound: number }): number {
  return status === 'FOUND' ? ttl.found : ttl.notFound;
}

/** The contract error for a lookup job's failure reason; anything unknown is our own fault. */
export function lookupFailureCode(failedReason: string | undefined): ErrorCode {
  if (failedReason === 'SERVICE_UNAVAILABLE' || failedReason === 'PARSE_ERROR') return failedReason;
  return 'INTERNAL_ERROR';
}
