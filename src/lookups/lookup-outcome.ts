import type { LookupOutcome, NameSearchOutcome, RegisterLicence } from '@lvs/register';
import type { ErrorCode } from '../errors/error-codes';

export type FinalStatus = 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS';

/** A finished lookup, as cached and as returned by the worker. */
export interface FinalResult {
  status: FinalStatus;
  licence: RegisterLicence | null;
  /** ISO time the register was asked */
  checkedAt: string;
}

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

/** A finished name search, as cached and as returned by the worker: every licence it found. */
export interface NameSearchResult {
  status: FinalStatus;
  licences: RegisterLicence[];
  /** ISO time the register was asked */
  checkedAt: string;
}

/** The register client's name search outcome as the result our API keeps and answers. */
export function toNameSearchResult(outcome: NameSearchOutcome, checkedAt: Date): NameSearchResult {
  const checked = checkedAt.toISOString();
  switch (outcome.kind) {
    case 'found':
      return { status: 'FOUND', licences: outcome.licences, checkedAt: checked };
    case 'not_found':
      return { status: 'NOT_FOUND', licences: [], checkedAt: checked };
    case 'too_many_results':
      return { status: 'TOO_MANY_RESULTS', licences: [], checkedAt: checked };
  }
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

/** A lookup job's outcome as a waiter sees it: finished either way, or still pending. */
/** What a lookup job answers: a licence's final result, or a name search's. */
export type LookupJobResult = FinalResult | NameSearchResult;

export type LookupWait<Result extends LookupJobResult = FinalResult> =
  { state: 'completed'; result: Result } | { state: 'failed'; reason: string | undefined } | { state: 'pending' };

/** A job's standing as stored, for callers that only kept its id; `missing` once it was removed. */
export type LookupStanding<Result extends LookupJobResult = FinalResult> = LookupWait<Result> | { state: 'missing' };
