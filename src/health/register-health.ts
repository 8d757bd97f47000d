/** What readiness says of the register, from the breaker's phase. */
export type RegisterHealth = { state: string; register: 'ok' } | { state: string; register: 'degraded' | 'drifted'; message: string };

/** What waits for an operator's acknowledgement: a canary's failure, a register page of a new shape. */
export interface RegisterDrift {
  canary: boolean;
  pageShape: boolean;
}

const NO_DRIFT: RegisterDrift = { canary: false, pageShape: false };
const DRIFT_MESSAGES: Record<keyof RegisterDrift, string> = {
  canary: 'A register canary failed: check its alert, then `npm run admin -- canary acknowledge` (or `canary rebaseline`)',
  pageShape:
    'The register served a page of a new shape: check its alert and sample (`npm run admin -- shape list`), then `npm run admin -- shape acknowledge SHAPE`',
};

const WHY = "the worker's log names the cause in a line 'Register <host> unreachable: …'";

/**
 * The register as readiness shows it: degraded while the breaker keeps lookups away from it, said plainly.
 * Drifted while a canary's failure (the register answers what a licence cannot) or a page of a new shape (the
 * register's layout changed) waits for an operator: a register out of reach says degraded first, being the more pressing. Never a reason to be unready: cached answers are still
 * served, and the register is not ours to fix.
 */
export function registerHealth(phase: string, drift: RegisterDrift = NO_DRIFT): RegisterHealth {
  switch (phase) {
    case 'open':
      return {
        state: phase,
        register: 'degraded',
        message: `The register cannot be reached: new lookups answer 503 until it answers again, cached answers are still served; ${WHY}`,
      };
    case 'half-open':
      return {
        state: phase,
        register: 'degraded',
        message: `The register could not be reached: one lookup is trying it again, others answer 503 meanwhile; ${WHY}`,
      };
    default: {
      const waiting = (Object.keys(DRIFT_MESSAGES) as (keyof RegisterDrift)[]).filter((cause) => drift[cause]);
      return waiting.length > 0
        ? { state: phase, register: 'drifted', message: waiting.map((cause) => DRIFT_MESSAGES[cause]).join('; ') }
        : { state: phase, register: 'ok' };
    }
  }
}
