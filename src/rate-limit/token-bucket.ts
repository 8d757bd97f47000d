/**
 * The per-user token bucket (a generic cell rate algorithm), in whole numbers so that Redis's Lua and
 * this file compute the same thing: one token is TOKEN_UNITS units, each microsecond pays back
 * `ratePerSecond` units of the backlog, and a request is admitted while its token still fits under
 * `burst` tokens. The bucket is stored as its backlog and the microsecond it was measured at.
 */
export interface BucketPolicy {
  ratePerSecond: number;
  burst: number;
}

export interface BucketState {
  /** units owed: 0 is a full bucket, burst × TOKEN_UNITS an empty one */
  backlog: number;
  /** the Redis clock, in microseconds, when backlog was measured */
  atMicros: number;
}

/** The answer's fields: tokens left, and whole seconds until one more token is there. */
export interface BucketReading {
  remaining: number;
  secondsToNextToken: number;
}

export const TOKEN_UNITS = 1_000_000;
const MICROS_PER_SECOND = 1_000_000;

/**
 * A user's policy: the defaults, or the user's own rate with a burst of twice that rate, the ratio of the
 * defaults (20 per second, 40 at once): two seconds' worth of requests may come at once.
 */
export function userPolicy(rateOverride: number | null, defaults: BucketPolicy): BucketPolicy {
  return rateOverride === null ? defaults : { ratePerSecond: rateOverride, burst: 2 * rateOverride };
}

/** The backlog left at `nowMicros`, paid back since it was measured (never below a full bucket). */
export function backlogAt(state: BucketState | null, nowMicros: number, policy: BucketPolicy): number {
  if (state === null) return 0;
  return Math.max(0, state.backlog - Math.max(0, nowMicros - state.atMicros) * policy.ratePerSecond);
}

/** Takes one token from a bucket whose backlog is `backlog` now: admitted while the token fits. */
export function takeToken(backlog: number, policy: BucketPolicy): { admitted: boolean; backlog: number } {
  const after = backlog + TOKEN_UNITS;
  return after <= policy.burst * TOKEN_UNITS ? { admitted: true, backlog: after } : { admitted: false, backlog };
}

/**
 * What a client is told about a bucket with this backlog: the tokens left, and the whole seconds (rounded
 * up, so never too early, and at least 1) until one more is there: Retry-After when none is left.
 */
export function readBucket(backlog: number, policy: BucketPolicy): BucketReading {
  const capacity = policy.burst * TOKEN_UNITS;
  const remaining = Math.floor((capacity - backlog) / TOKEN_UNITS);
  // The backlog must fall to where remaining + 1 tokens fit; it falls by ratePerSecond units a microsecond.
  const unitsToPay = backlog - (capacity - (remaining + 1) * TOKEN_UNITS);
  const micros = unitsToPay / policy.ratePerSecond;
  return { remaining, secondsToNextToken: Math.max(1, Math.ceil(micros / MICROS_PER_SECOND)) };
}

/** Whole seconds in which an empty bucket fills again: the window of the advertised policy. */
export function refillSeconds(policy: BucketPolicy): number {
  return Math.ceil(policy.burst / policy.ratePerSecond);
}
