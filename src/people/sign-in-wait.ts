/** The wait before the next attempt, whole seconds, from each counter's: the longer wins; 0 when both let it through. */
export function signInWaitSeconds(addressWaitMs: number, emailWaitMs: number): number {
  return Math.ceil(Math.max(addressWaitMs, emailWaitMs) / 1000);
}
