/** Readiness answers from a check that started at most this long ago, so probes never cost a check each. */
export const READINESS_MAX_AGE_MS = 1000;

/**
 * Whether a readiness check that started at `startedAtMs` may still answer at `nowMs` (both on a monotonic clock). Its age counts from
 * its start, not its end: the dependencies were asked then, and a slow check must not stretch the window.
 */
export function isReadinessCheckFresh(startedAtMs: number | undefined, nowMs: number, maxAgeMs = READINESS_MAX_AGE_MS): boolean {
  return startedAtMs !== undefined && nowMs - startedAtMs <= maxAgeMs;
}
