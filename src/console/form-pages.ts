import { VerificationsQuery } from '../verification-records/dto/verifications-query.dto';
import { writeNewestFirstCursor } from '../validation/paging';
import type { HolderCheckLine, VerificationView } from './console-view';

/** The holder's fields of the Verify page as typed (blank when not given). */
export interface HolderFields {
  firstName: string;
  surname: string;
  dateOfBirth: string;
}

export interface VerifyOutcome {
  licenceNumber: string;
  /** shown again in the form, and sent again while PENDING */
  holder: HolderFields;
  /** the API's words for a refused form or a failed verification */
  error: string | null;
  result: VerificationView | null;
  /** the holder check's lines, when names were given and the licence was found */
  holderCheck: HolderCheckLine[] | null;
  /** while PENDING: the key that picks up the same lookup */
  idempotencyKey: string | null;
}

const typed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The holder's fields to show again: as validated, or as sent when refused. */
export function holderFields(form: { firstName?: unknown; surname?: unknown; dateOfBirth?: unknown }): HolderFields {
  return { firstName: typed(form.firstName), surname: typed(form.surname), dateOfBirth: typed(form.dateOfBirth) };
}

/** The Verify page again, with the form as sent and the API's words for why it was refused. */
export function refusedVerify(sent: Record<string, unknown>, error: string): { outcome: VerifyOutcome } {
  return {
    outcome: { licenceNumber: typed(sent.licenceNumber), holder: holderFields(sent), error, result: null, holderCheck: null, idempotencyKey: null },
  };
}

const FIRST_PAGE = new VerificationsQuery();

/**
 * The History page's filters as its form and its links carry them on: what the query sets, as text. The page
 * size only when asked for, so that a first visit reads as one with no filter.
 */
export function historyFilters(query: VerificationsQuery): Record<string, string> {
  const { licenceNumber, from, to, status, channel, memberId, limit, cursor } = query;
  const set = {
    licenceNumber,
    from,
    to,
    status,
    channel,
    memberId,
    limit: limit === FIRST_PAGE.limit ? undefined : String(limit),
    cursor: cursor === undefined ? undefined : writeNewestFirstCursor(cursor),
  };
  return Object.fromEntries(Object.entries(set).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The History page with no rows, its form as sent and the API's words for the refused filter. */
export function refusedHistory(sent: Record<string, unknown>, error: string) {
  return { filters: sent, members: [], verifications: [], nextCursor: null, error };
}
