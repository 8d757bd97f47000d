import { VerificationsQuery } from '../verification-records/dto/verifications-query.dto';
import { ActivityQuery } from '../auth/dto/activity.dto';
import { NewestFirstCursor, writeNewestFirstCursor } from '../validation/paging';
import { ACTIVITY_FORM } from './activity-view';
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

/**
 * A newest-first list's filters as its page's form and links carry them on (History, Activity): what the query sets,
 * as text. The page size only when not the first page's (`firstPage`: the query as it stands when nothing is sent),
 * so that a first visit reads as one with no filter.
 */
export function listFilters(query: { limit: number; cursor?: NewestFirstCursor }, firstPage: { limit: number }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query as Record<string, string | number | NewestFirstCursor | undefined>).flatMap(([name, value]): [string, string][] => {
      if (value === undefined || (name === 'limit' && value === firstPage.limit)) return [];
      return [[name, typeof value === 'object' ? writeNewestFirstCursor(value) : String(value)]];
    }),
  );
}

const HISTORY_FIRST_PAGE = new VerificationsQuery();
const ACTIVITY_FIRST_PAGE = new ActivityQuery();

export const historyFilters = (query: VerificationsQuery): Record<string, string> => listFilters(query, HISTORY_FIRST_PAGE);

export const activityPageFilters = (query: ActivityQuery): Record<string, string> => listFilters(query, ACTIVITY_FIRST_PAGE);

/** The History page with no rows, its form as sent and the API's words for the refused filter. */
export function refusedHistory(sent: Record<string, unknown>, error: string) {
  return { filters: sent, members: [], verifications: [], nextCursor: null, error };
}

/** The Activity page with no rows, its form as sent and the API's words for the refused filter. */
export function refusedActivity(sent: Record<string, unknown>, error: string) {
  return { ...ACTIVITY_FORM, filters: sent, actors: { members: [], keys: [] }, rows: [], nextCursor: null, error };
}
