import type { KeyMode } from '../auth/key-mode';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';

/** Who waits for a new lookup: a partner's request (live) or a batch row or re-check (background). */
export type LookupUrgency = 'live' | 'background';

export interface WaitingCounts {
  /** live lookups waiting in the queue, of every user */
  live: number;
  /** every lookup waiting, live or background, queued or parked, of every user */
  all: number;
  /** the user's own background lookups parked in their pending lists */
  user: number;
}

export interface WaitingLimits {
  queueMax: number;
  userMax: number;
}

/** Whether `newLookups` more lookups would take the user past their own bound. */
export function exceedsUserBound(userWaiting: number, newLookups: number, userMax: number): boolean {
  return userWaiting + newLookups > userMax;
}

/**
 * Whether the queue's bound, the last guard, refuses a new lookup. A live verification is measured only
 * against the live lookups, so that batches and re-checks waiting above it never refuse a partner's single
 * verification.
 */
export function exceedsQueueBound(urgency: LookupUrgency, counts: Omit<WaitingCounts, 'user'>, queueMax: number): boolean {
  return (urgency === 'live' ? counts.live : counts.all) >= queueMax;
}

/**
 * Whether `newLookups` more lookups for one user must be refused. The user's own bound comes first:
 * one user's backlog never refuses another's. The queue bound is the last guard; a live
 * verification is measured only against the live lookups, so that batches and re-checks waiting
 * above it never refuse a partner's single verification.
 */
export function exceedsWaitingBounds(urgency: LookupUrgency, newLookups: number, counts: WaitingCounts, limits: WaitingLimits): boolean {
  if (exceedsUserBound(counts.user, newLookups, limits.userMax)) return true;
  return exceedsQueueBound(urgency, counts, limits.queueMax);
}

/**
 * How many live lookups of the user may wait for the register at once: the account's own bound when the operator set
 * one (keys set-live-limit), else USER_MAX_LIVE_LOOKUPS.
 */
export function liveLookupBound(accountLimit: number | null | undefined, liveMax: number): number {
  return accountLimit ?? liveMax;
}

/**
 * The queue whose waiting lookups bound a new lookup of a key of `mode`: the one it will wait in. Each queue has a
 * bound of its own (QUEUE_MAX_WAITING), so a test key's flood never refuses a live lookup (503), nor live traffic a
 * test lookup.
 */
export function boundingQueue(mode: KeyMode): typeof REGISTER_LOOKUP_QUEUE | typeof TEST_LOOKUP_QUEUE {
  return mode === 'test' ? TEST_LOOKUP_QUEUE : REGISTER_LOOKUP_QUEUE;
}
