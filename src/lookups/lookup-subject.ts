import type { LookupJobData } from './lookup-jobs';

/** What a lookup asks the register: a licence number, or a name search; in no world yet. */
export interface LookupSubject {
  /** What the quota counts once per user and month, and what an idempotency key is bound to. */
  unit: string;
  /** The job that asks the register for it. */
  job: LookupJobData;
}

/** A subject as its world names it (ResultCache.names): the job is the one its world queues. */
export interface NamedSubject extends LookupSubject {
  /** Where its final result is cached (ResultCache). */
  cacheKey: string;
  /** At most one job per flight id is in flight, across all processes (single flight). */
  flightId: string;
}

/** A lookup by licence number, charged as the number. */
export function numberSubject(licenceNumber: string): LookupSubject {
  return { unit: licenceNumber, job: { licenceNumber } };
}

/** A name search, named by `searchKey` (its digest) and charged as `unit`; the job carries it sealed. */
export function nameSearchSubject(searchKey: string, sealedSearch: string, unit: string): LookupSubject {
  return { unit, job: { kind: 'name', searchKey, sealedSearch } };
}
