/**
 * The register circuit breaker's state, shared by every process (stored in Redis as JSON).
 * closed: lookups go ahead, counting consecutive unavailable outcomes.
 * open: new lookups are refused until openUntil.
 * half-open: one probe lookup was let through at the end of the cooldown; its outcome decides.
 */
export type BreakerPhase = 'closed' | 'open' | 'half-open';

export interface BreakerState {
  phase: BreakerPhase;
  /** consecutive lookup attempts that found the register unavailable */
  failures: number;
  /** epoch ms; open: when the cooldown ends */
  openUntil: number;
  /** epoch ms; half-open: when a probe that never reported counts as lost, so another may go */
  probeUntil: number;
}

export interface BreakerSettings {
  failureThreshold: number;
  cooldownMs: number;
}

export const CLOSED_BREAKER: BreakerState = Object.freeze({ phase: 'closed', failures: 0, openUntil: 0, probeUntil: 0 });

export interface Admission {
  admitted: boolean;
  next: BreakerState;
}

/** Whether a new lookup may go to the register now; at the end of a cooldown the first one becomes the probe. */
export function admitLookup(state: BreakerState, now: number, settings: BreakerSettings): Admission {
  switch (state.phase) {
    case 'closed':
      return { admitted: true, next: state };
    case 'open':
      if (now < state.openUntil) return { admitted: false, next: state };
      return { admitted: true, next: { ...state, phase: 'half-open', probeUntil: now + settings.cooldownMs } };
    case 'half-open':
      if (now < state.probeUntil) return { admitted: false, next: state };
      return { admitted: true, next: { ...state, probeUntil: now + settings.cooldownMs } };
  }
}

/**
 * A lookup attempt's outcome: the register answered (any page we could read) or was unavailable
 * (timeout, refused, 5xx, 429). An answer closes the breaker; unavailable outcomes open it after
 * the threshold, and at once when the probe fails. Late outcomes while open change nothing, so
 * the cooldown is not stretched by jobs that were already running.
 */
export function recordOutcome(state: BreakerState, outcome: 'answered' | 'unavailable', now: number, settings: BreakerSettings): BreakerState {
  if (outcome === 'answered') return state.phase === 'closed' && state.failures === 0 ? state : CLOSED_BREAKER;
  const failures = state.failures + 1;
  switch (state.phase) {
    case 'closed':
      return failures >= settings.failureThreshold
        ? { phase: 'open', failures, openUntil: now + settings.cooldownMs, probeUntil: 0 }
        : { ...state, failures };
    case 'half-open':
      return { phase: 'open', failures, openUntil: now + settings.cooldownMs, probeUntil: 0 };
    case 'open':
      return state;
  }
}

/** Reads a stored state; anything unreadable or missing is a closed breaker. */
export function parseBreakerState(stored: string | null): BreakerState {
  if (stored === null) return CLOSED_BREAKER;
  try {
    const value = JSON.parse(stored) as Partial<BreakerState>;
    const phases: BreakerPhase[] = ['closed', 'open', 'half-open'];
    if (!phases.includes(value.phase as BreakerPhase)) return CLOSED_BREAKER;
    const number = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : 0);
    return {
      phase: value.phase as BreakerPhase,
      failures: number(value.failures),
      openUntil: number(value.openUntil),
      probeUntil: number(value.probeUntil),
    };
  } catch {
    return CLOSED_BREAKER;
  }
}
