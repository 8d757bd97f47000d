/** A console session ends 8 hours after sign-in at the latest, and after 1 hour without a request. */
export const SESSION_ABSOLUTE_MS = 8 * 3600_000;
export const SESSION_IDLE_MS = 3600_000;

/**
 * How long a session may still live at `now`: until an hour after its last request, cut short by its absolute
 * end; 0 when either has passed.
 */
export function sessionTimeLeftMs(signedInAtMs: number, lastSeenAtMs: number, nowMs: number): number {
  return Math.max(0, Math.min(lastSeenAtMs + SESSION_IDLE_MS, signedInAtMs + SESSION_ABSOLUTE_MS) - nowMs);
}
