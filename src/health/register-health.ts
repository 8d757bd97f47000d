/** What readiness says of the register, from the breaker's phase. */
export type RegisterHealth = { state: string; register: 'ok' } | { state: string; register: 'degraded' | 'drifted'; message: string };

const WHY = "the worker's log names the cause in a line 'Register <host> unreachable: …'";

/**
 * The register as readiness shows it: degraded while the breaker keeps lookups away from it, said plainly.
 * Drifted while a canary's failure waits for an operator (the register answers what a licence cannot): a register
 * out of reach says degraded first, being the more pressing. Never a reason to be unready: cached answers are still
 * served, and the register is not ours to fix.
 */
export function registerHealth(phase: string, drifted = false): RegisterHealth {
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
    default:
      return drifted
        ? {
            state: phase,
            register: 'drifted',
            message: 'A register canary failed: check its alert, then `npm run admin -- canary acknowledge` (or `canary rebaseline`)',
          }
        : { state: phase, register: 'ok' };
  }
}
