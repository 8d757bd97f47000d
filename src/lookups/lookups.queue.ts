import type { FinalResult, NameSearchResult } from './lookup-outcome';

/** The queue between the API (producer) and the worker process (consumer). */
export const REGISTER_LOOKUP_QUEUE = 'register-lookup';
export const LOOKUP_JOB = 'lookup';

/**
 * Every caller's priority on the one lookup queue, in one table. BullMQ takes the lowest number
 * first, and a job without a priority (0) before every prioritised one: a partner's single verify
 * never waits behind a 1,000-row batch, and batches never wait behind background re-checks.
 */
export const LOOKUP_PRIORITY = {
  liveVerify: 0,
  batchItem: 10,
  watchlistRecheck: 20,
} as const;

export type LookupPriority = (typeof LOOKUP_PRIORITY)[keyof typeof LOOKUP_PRIORITY];

/** A lookup by licence number; jobs queued before name searches existed carry no kind. */
export interface LicenceLookupJobData {
  kind?: 'licence';
  licenceNumber: string;
  /** Of the request that enqueued the job, so that the worker's log lines can be matched to it. */
  requestId?: string;
  /** ask the register even when the cache holds an answer (a watchlist re-check wants today's) */
  refresh?: boolean;
}

/**
 * A search by name. The job carries no holder data in clear (Redis keeps jobs for an hour after they end): the
 * search is sealed for the worker, and `searchKey`, its digest, names it for single flight and the cache.
 */
export interface NameSearchJobData {
  kind: 'name';
  searchKey: string;
  sealedSearch: string;
  requestId?: string;
}

export type LookupJobData = LicenceLookupJobData | NameSearchJobData;

export type LookupJobResult = FinalResult | NameSearchResult;

/**
 * Failure reasons a lookup job ends with; the API maps them to the contract's error codes.
 * They travel as the job's failedReason, so they are plain strings.
 */
export const LOOKUP_FAILURE = {
  unavailable: 'SERVICE_UNAVAILABLE',
  unexpectedPage: 'PARSE_ERROR',
  internal: 'INTERNAL_ERROR',
} as const;
