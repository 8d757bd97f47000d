import type { RegisterLicence } from '@lvs/register';
import { ApiError } from '../errors/api-error';
import type { FinalResult, NameSearchResult } from '../lookups/lookup-outcome';
import { verificationAnswer, VerificationBody } from '../verification/outcome-status';
import type { HolderCheck } from './holder-check';

export interface HolderCheckBody extends VerificationBody {
  holderCheck: HolderCheck | null;
}

export type SearchStatus = 'FOUND' | 'NOT_FOUND' | 'PENDING';

export interface SearchBody {
  status: SearchStatus;
  message: string;
  licences: RegisterLicence[];
  checkedAt: string | null;
  dateOfBirthApplied: boolean | null;
}

const SEARCH_MESSAGES: Record<SearchStatus, string> = {
  FOUND: 'Licences found',
  NOT_FOUND: 'No licence matches the search',
  PENDING: 'Search is still in progress; retry with the same Idempotency-Key',
};

const SEARCH_HTTP_STATUS: Record<SearchStatus, number> = { FOUND: 200, NOT_FOUND: 404, PENDING: 202 };

/** verify-holder answers as verify does, with the holder check beside it (null unless the licence was found). */
export function holderCheckAnswer(
  result: FinalResult | 'PENDING',
  check: HolderCheck | null,
  verificationId?: string | null,
): { httpStatus: number; body: HolderCheckBody } {
  const { httpStatus, body } = verificationAnswer(result, verificationId);
  return { httpStatus, body: { ...body, holderCheck: body.status === 'FOUND' ? check : null } };
}

/**
 * A name search's answer; a search too broad for the register to list is the error TOO_MANY_RESULTS (409).
 * `dateOfBirthApplied`: whether the date given reached the register (false past the bound), null without one.
 */
export function searchAnswer(result: NameSearchResult | 'PENDING', dateOfBirthApplied: boolean | null): { httpStatus: number; body: SearchBody } {
  if (result === 'PENDING') {
    return {
      httpStatus: SEARCH_HTTP_STATUS.PENDING,
      body: { status: 'PENDING', message: SEARCH_MESSAGES.PENDING, licences: [], checkedAt: null, dateOfBirthApplied },
    };
  }
  if (result.status === 'TOO_MANY_RESULTS') throw new ApiError('TOO_MANY_RESULTS');
  const licences = result.status === 'FOUND' ? result.licences : [];
  return {
    httpStatus: SEARCH_HTTP_STATUS[result.status],
    body: { status: result.status, message: SEARCH_MESSAGES[result.status], licences, checkedAt: result.checkedAt, dateOfBirthApplied },
  };
}
