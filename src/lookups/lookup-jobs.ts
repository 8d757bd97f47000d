import { randomUUID } from 'node:crypto';

/** The queue between the API (producer) and the worker process (consumer). */
export const REGISTER_LOOKUP_QUEUE = 'register-lookup';
/**
 * Test users' lookups, answered by the built-in test register: a queue of their own with a worker of its own and no
 * register limiter, so that test traffic never takes the register's turns nor waits among live lookups.
 */
export const TEST_LOOKUP_QUEUE = 'register-lookup-test';
/** Starts the id of every job of the test queue, so that a job id alone tells which queue holds the job. */
const TEST_JOB_PREFIX = 'test-';
export const LOOKUP_JOB = 'lookup';

/**
 * Every caller's priority on the one lookup queue, in one table. BullMQ takes the lowest number first. Live
 * lookups come before every background one, and among them a user's lookup gets `live` plus the number of that
 * user's live lookups already waiting (livePriority): users take turns, so one partner's burst never holds up
 * another's single verification. Batch rows come before re-checks, and within each the users take turns through
 * their pending lists (LookupDispatcher).
 */
export const LOOKUP_PRIORITY = {
  live: 1,
  batchItem: 1_000_000,
  watchlistRecheck: 2_000_000,
} as const;

export type LookupPriority = number;

/** A live lookup's priority when `ahead` of the same user's live lookups are waiting before it. */
export function livePriority(ahead: number): LookupPriority {
  return LOOKUP_PRIORITY.live + Math.min(Math.max(0, ahead), LOOKUP_PRIORITY.batchItem - LOOKUP_PRIORITY.live - 1);
}

/** A lookup by licence number; jobs queued before name searches existed carry no kind. */
export interface LicenceLookupJobData {
  kind?: 'licence';
  licenceNumber: string;
  /** Of the request that enqueued the job, so that the worker's log lines can be matched to it. */
  requestId?: string;
  /** ask the register even when the cache holds an answer (a watchlist re-check wants today's) */
  refresh?: boolean;
  /** A test user's lookup: answered by that user's built-in test register, never by REGISTER_URL. */
  testUserId?: string;
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
  /** A test user's search: answered by that user's built-in test register, never by REGISTER_URL. */
  testUserId?: string;
}

export type LookupJobData = LicenceLookupJobData | NameSearchJobData;

/** A new job's id, in the queue of its world (a test user's lookups go to TEST_LOOKUP_QUEUE). */
export function newLookupJobId(job: LookupJobData): string {
  return job.testUserId ? `${TEST_JOB_PREFIX}${randomUUID()}` : randomUUID();
}

/** The queue that holds the job: ids from newLookupJobId name their queue. */
export function lookupQueueOf(jobId: string): typeof REGISTER_LOOKUP_QUEUE | typeof TEST_LOOKUP_QUEUE {
  return jobId.startsWith(TEST_JOB_PREFIX) ? TEST_LOOKUP_QUEUE : REGISTER_LOOKUP_QUEUE;
}

/**
 * What a job asks, as single flight and the cache name it: the licence number, or `name:` and the search's digest
 * (a digest so never meets a number). A test user's lookups are named apart again (see LookupService).
 */
export function subjectId(job: LookupJobData): string {
  return job.kind === 'name' ? `name:${job.searchKey}` : job.licenceNumber;
}

/**
 * Failure reasons a lookup job ends with; the API maps them to the contract's error codes.
 * They travel as the job's failedReason, so they are plain strings.
 */
export const LOOKUP_FAILURE = {
  unavailable: 'SERVICE_UNAVAILABLE',
  unexpectedPage: 'PARSE_ERROR',
  internal: 'INTERNAL_ERROR',
} as const;
