import type { AuthenticatedUser } from '../auth/authenticated-user';
import type { Charge } from '../quota/quota.service';
import type { LookupSubject } from './lookup-subject';

/** Who pays for a lookup, and whose turn and bounds it takes. */
export type LookupUser = Pick<AuthenticatedUser, 'userId' | 'monthlyQuota' | 'liveLookupLimit'> & {
  /** The user's side; read from its row (UserModes) when the caller has no key in hand (roster rows, re-checks). */
  mode?: AuthenticatedUser['mode'];
};

/**
 * What answers from the cache: `use` a cached result (the job too, should one be written meanwhile); `read`: the
 * caller has just read it and found none (not read again here; the job still may); `bypass`: today's answer, the
 * register's (a canary); `newerThan`: only a result checked after that time, else the register's (a re-check).
 */
export type CachePolicy = 'use' | 'read' | 'bypass' | { newerThan: Date | null };

interface LookupOf {
  subject: LookupSubject;
  user: LookupUser;
}

/** A partner's request, waiting for its answer (verify, verify-holder, search by name; the console through them). */
export interface LiveLookupRequest extends LookupOf {
  kind: 'live';
  /** Epoch ms until which to wait for the register; past it the answer is `pending`. */
  deadline: number;
  /** The request's id, on the worker's log lines about its job. */
  requestId: string;
  cache: 'use' | 'read';
  /**
   * Who pays: `charge` the subject's unit now (once per user and month, after admission), an earlier charge that
   * waits on this lookup, or null (nothing to pay, or paid already). Refunded if the lookup is refused or fails.
   */
  payment: 'charge' | Charge | null;
  /** The job an earlier request tied to the same answer (an idempotency key): waited on while still in flight. */
  joinJob?: string | null;
  /** Told the job's id once queued, before the wait (an idempotency record). */
  onQueued?: (jobId: string) => Promise<void>;
}

/**
 * A roster's row, its number or its holder's date search: admitted with its whole roster (LookupService.reserve), so
 * no breaker probe per row; answered from the cache or `pending` at once, and settled when its job ends.
 */
export interface BatchLookupRequest extends LookupOf {
  kind: 'batch';
  cache: 'use' | 'read';
  /** The row's new charge, waiting on the lookup: refunded if it is refused or fails. */
  payer: Charge | null;
  /** Told the job's id once queued (the roster's item), before any wait. */
  onQueued: (jobId: string) => Promise<void>;
}

/** A watched number's re-check, a successor's search, a canary: never charged, last in the queue. */
export interface RecheckLookupRequest extends LookupOf {
  kind: 'recheck';
  /** Epoch ms until which to wait for the register. */
  deadline: number;
  /** Stops the wait early (a worker shutting down): the lookup stays queued and the answer is `pending`. */
  signal?: AbortSignal;
  cache: Exclude<CachePolicy, 'read'>;
}

/** One lookup, of one kind: each kind carries only the knobs that mean something for it. */
export type LookupRequest = LiveLookupRequest | BatchLookupRequest | RecheckLookupRequest;

/**
 * What the lookup is paid with: a charge to make now, after admission (a live lookup's `'charge'`), and an earlier
 * charge that waits on its job; both refunded if the lookup is refused or fails. A re-check pays nothing.
 */
export function paymentOf(request: LookupRequest): { chargeNow: boolean; payer: Charge | null } {
  switch (request.kind) {
    case 'live':
      return request.payment === 'charge' ? { chargeNow: true, payer: null } : { chargeNow: false, payer: request.payment };
    case 'batch':
      return { chargeNow: false, payer: request.payer };
    case 'recheck':
      return { chargeNow: false, payer: null };
  }
}

/** Whether the service reads the cache before looking up. */
export function readsCache(cache: CachePolicy): boolean {
  return cache !== 'read' && cache !== 'bypass';
}

/** Whether a cached result, checked at `checkedAt` (ISO), answers the request. */
export function cachedAnswers(cache: CachePolicy, checkedAt: string): boolean {
  if (typeof cache === 'string') return readsCache(cache);
  return cache.newerThan !== null && Date.parse(checkedAt) > cache.newerThan.getTime();
}

/** Whether the job must ask the register even when the cache holds an answer by then (today's answer wanted). */
export function refreshes(cache: CachePolicy): boolean {
  return cache === 'bypass' || typeof cache === 'object';
}
