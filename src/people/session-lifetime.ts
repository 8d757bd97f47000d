/** How long a signed-in session may live: idle (from its last request) and absolute (from its sign-in). */
export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

/** The limits from their settings (CONSOLE_IDLE_MINUTES, CONSOLE_SESSION_HOURS, or an operator console's own). */
export function sessionLimits(idleMinutes: number, absoluteHours: number): SessionLimits {
  return { idleMs: idleMinutes * 60_000, absoluteMs: absoluteHours * 3600_000 };
}

/**
 * How long a session may still live at `now`: until its idle time after its last request, cut short by its
 * absolute end; 0 when either has passed.
 */
export function sessionTimeLeftMs(limits: SessionLimits, signedInAtMs: number, lastSeenAtMs: number, nowMs: number): number {
  return Math.max(0, Math.min(lastSeenAtMs + limits.idleMs, signedInAtMs + limits.absoluteMs) - nowMs);
}
