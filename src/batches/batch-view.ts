import type { RegisterLicence } from '@lvs/register';
import { isUuid } from '../validation/uuid';
import type { LookupWait } from '../lookups/lookup-outcome';
import { lookupFailureCode } from '../lookups/lookup-outcome';
import type { HolderCheck } from '../holders/holder-check';
import type { KeyMode } from '../auth/key-mode';

export type BatchStatus = 'RUNNING' | 'COMPLETED';
export type BatchItemStatus = 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS' | 'PENDING' | 'ERROR';

export const ITEM_STATUSES: readonly BatchItemStatus[] = ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING', 'ERROR'];

export type BatchCounts = Record<BatchItemStatus, number>;

export interface BatchItemView {
  index: number;
  licenceNumber: string;
  reference: string | null;
  status: BatchItemStatus;
  errorCode: string | null;
  licence: RegisterLicence | null;
  checkedAt: string | null;
  /** The row's verification record, once its answer is final; null before and on ERROR. */
  verificationId: string | null;
  /** Present only on a row that names a holder: null until the check is made. */
  holderCheck?: HolderCheck | null;
}

export interface BatchSummaryView {
  id: string;
  status: BatchStatus;
  createdAt: string;
  completedAt: string | null;
  total: number;
  counts: BatchCounts;
  mode: KeyMode;
}

export interface BatchView extends BatchSummaryView {
  items: BatchItemView[];
  /** pass as `cursor` for the next page of items; null on the last page */
  nextCursor: string | null;
}

/** What a finished lookup writes into each item waiting on it. */
export interface ItemResult {
  status: Exclude<BatchItemStatus, 'PENDING'>;
  errorCode: string | null;
  licence: RegisterLicence | null;
  checkedAt: string | null;
}

export function itemResult(outcome: Exclude<LookupWait, { state: 'pending' }>): ItemResult {
  if (outcome.state === 'failed') {
    return { status: 'ERROR', errorCode: lookupFailureCode(outcome.reason), licence: null, checkedAt: null };
  }
  const { status, licence, checkedAt } = outcome.result;
  return { status, errorCode: null, licence: status === 'FOUND' ? licence : null, checkedAt };
}

/** Counts per result, every status present (zero when no item has it). */
export function countsOf(rows: { status: string; count: number | string }[]): BatchCounts {
  const counts = Object.fromEntries(ITEM_STATUSES.map((status) => [status, 0])) as BatchCounts;
  for (const row of rows) counts[row.status as BatchItemStatus] = Number(row.count);
  return counts;
}

/** Anything that is not a UUID names no batch: 404, like an unknown one. */
export function isBatchId(value: string): boolean {
  return isUuid(value);
}

/** An item's position in its batch: at most 4 digits, as a batch has at most 1,000 items. */
export const ITEMS_CURSOR_MAX_LENGTH = 4;

/** The `cursor` of a batch's items: the index after which the page starts. */
export function readItemsCursor(text: string): number | null {
  return /^[0-9]{1,4}$/.test(text) ? Number(text) : null;
}

/** How long a client should wait before asking again: about the time the register needs for what is left. */
export function retryAfterSeconds(pending: number, lookupsPerSecond: number): number {
  return Math.min(Math.max(Math.ceil(pending / lookupsPerSecond), 1), 60);
}

/** The one mapping of a batch answer to HTTP: 200 when every item is final, else 202 to come back to. */
export function batchAnswer(view: BatchView, lookupsPerSecond: number): { httpStatus: 200 | 202; headers: Record<string, string> } {
  if (view.status === 'COMPLETED') return { httpStatus: 200, headers: {} };
  return {
    httpStatus: 202,
    headers: {
      Location: `/v1/batches/${view.id}`,
      'Retry-After': String(retryAfterSeconds(view.counts.PENDING, lookupsPerSecond)),
    },
  };
}
