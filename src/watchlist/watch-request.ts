import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { MAX_REFERENCE_LENGTH } from '../batches/roster';
import { isLicenceNumber } from '../verification/verify-request';

/** Reads PUT /v1/watchlist/{n}'s optional body {"reference"}: no body, or an object with only reference. */
export function readWatchBody(body: unknown): { reference: string | null } | { problem: string } {
  if (body === undefined || body === null) return { reference: null };
  if (typeof body !== 'object' || Array.isArray(body)) return { problem: VALIDATION_MESSAGES.notJson };
  const { reference, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return { problem: FEATURE_VALIDATION_MESSAGES.watchBody };
  const badReference = reference !== undefined && reference !== null && (typeof reference !== 'string' || reference.length > MAX_REFERENCE_LENGTH);
  if (badReference) return { problem: FEATURE_VALIDATION_MESSAGES.watchReference };
  return { reference: typeof reference === 'string' && reference !== '' ? reference : null };
}

export interface WatchlistQuery {
  limit: number;
  /** the last licence number of the previous page */
  after: string | null;
  /** the register's status word (Active, Revoked…), NOT_FOUND, TOO_MANY_RESULTS or UNCHECKED; any case */
  status: string | null;
  expiringWithinDays: number | null;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const MAX_EXPIRING_DAYS = 3650;

function readInteger(value: unknown, min: number, max: number): number | null {
  if (typeof value !== 'string' || !/^\d{1,5}$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** Reads GET /v1/watchlist's query: limit, cursor, status, expiringWithinDays. */
export function readWatchlistQuery(query: Record<string, unknown>): WatchlistQuery | { problem: string } {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : readInteger(query.limit, 1, MAX_LIMIT);
  if (limit === null) return { problem: FEATURE_VALIDATION_MESSAGES.watchlistLimit };
  const cursor = query.cursor;
  if (cursor !== undefined && !isLicenceNumber(cursor)) return { problem: FEATURE_VALIDATION_MESSAGES.cursor };
  const status = query.status;
  if (status !== undefined && (typeof status !== 'string' || !/^[A-Za-z_ ]{1,40}$/.test(status))) {
    return { problem: FEATURE_VALIDATION_MESSAGES.watchStatus };
  }
  const expiring = query.expiringWithinDays === undefined ? undefined : readInteger(query.expiringWithinDays, 0, MAX_EXPIRING_DAYS);
  if (expiring === null) return { problem: FEATURE_VALIDATION_MESSAGES.expiringWithinDays };
  return {
    limit,
    after: (cursor as string | undefined) ?? null,
    status: (status as string | undefined)?.toUpperCase() ?? null,
    expiringWithinDays: expiring ?? null,
  };
}
