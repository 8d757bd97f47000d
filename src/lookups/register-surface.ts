import type { LookupOutcome, NameSearch, NameSearchOutcome, SearchOptions } from '@lvs/register';
import type { LookupOutcomeLabel } from '../metrics/metrics';
import type { LOOKUP_FAILURE, LookupJobData } from './lookup-jobs';

export type LookupFailure = (typeof LOOKUP_FAILURE)[keyof typeof LOOKUP_FAILURE];

/** How one lookup ended, for a surface's bookkeeping. */
export interface LookupEnding {
  /** the result's status, or the failure */
  outcome: LookupOutcomeLabel;
  seconds: number;
  /** the register's page, when one was read (parsed or not) */
  page: string | null;
  /** what it failed with; absent when it answered */
  error?: unknown;
}

/**
 * A world's register as a lookup job sees it (the world picks it: LiveRegister, or a test user's TestRegisters.of).
 * The job's steps (cache, measure, log, store, retry or not) are LookupProcessor's, the same in every world; what the
 * world's register answers and what it keeps account of are the surface's.
 */
export interface RegisterSurface {
  /** RegisterClient's two questions, as this world's register answers them. */
  lookup(licenceNumber: string, options: Pick<SearchOptions, 'onPage'>): Promise<LookupOutcome>;
  searchByName(search: NameSearch, options: Pick<SearchOptions, 'onPage'>): Promise<NameSearchOutcome>;
  /** Epoch ms from which the job's answer is due, `queuedAt` or earlier for at once (a test register's slow numbers). */
  answerAt(job: LookupJobData, queuedAt: number): Promise<number>;
  /** Tells the world's bookkeeping (metrics, breaker, outage log, page shapes) how a lookup ended; never throws. */
  record(ending: LookupEnding): void;
  /** Whether a failure is worth another attempt of the job. */
  retries(failure: LookupFailure): boolean;
  /** Whether the job's result is cached. */
  keeps(job: LookupJobData): boolean;
}
