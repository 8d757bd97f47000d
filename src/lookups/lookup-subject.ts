import type { LookupJobData } from './lookup-jobs';

/** What a lookup asks the register: a licence number, or a name search. */
export interface LookupSubject {
  /** What the quota counts once per user and month, and what an idempotency key is bound to. */
  unit: string;
  /** Where its final result is cached (ResultCache). */
  cacheKey: string;
  /** The job that asks the register for it. */
  job: LookupJobData;
  /** At most one job per flight id is in flight, across all processes (single flight). */
  flightId: string;
}
