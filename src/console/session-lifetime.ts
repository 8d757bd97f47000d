/** A console session ends 8 hours after sign-in at the latest, and after 1 hour without a request. */
export const SESSION_ABSOLUTE_MS = 8 * 3600_000;
export const SESSION_IDLE_MS = 3600_000;

/** How long a session may live from `now` on: the idle time, cut short by its absolute end; 0 when over. */
export function sessionTimeLeftMs(signedInAtMs: number, nowMs: number): number {
  return Math.max(0, Math.min(SESSION_IDLE_MS, signedInAtMs + SESSION_ABSOLUTE_MS - nowMs));
}
