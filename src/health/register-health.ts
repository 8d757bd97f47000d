/** What readiness says of the register, from the breaker's phase. */
export type RegisterHealth = { state: string; register: 'ok' } | { state: string; register: 'degraded'; message: string };

const WHY = "the worker's log names the cause in a line 'Register <host> unreachable: …'";

/**
 * The register as readiness shows it: degraded while the breaker keeps lookups away from it, said plainly.
 * Never a reason to be unready: cached answers are still served, and the register is not ours to fix.
 */
export function registerHealth(phase: string): RegisterHealth {
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
      return { state: phase, register: 'ok' };
  }
}
