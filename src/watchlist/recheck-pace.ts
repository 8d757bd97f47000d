// Ticks arrive a little late now and then; claiming a fifth more than the even share lets a
// late tick's numbers catch up instead of drifting behind their cycle.
const CATCH_UP_FACTOR = 1.2;

/**
 * How many due numbers one tick may claim: enough to go round every watched number once per
 * cycle, spread evenly over it, but never more than the register share allows.
 */
export function recheckClaimLimit(options: {
  watchedNumbers: number;
  cycleSeconds: number;
  tickMs: number;
  registerPerSecond: number;
  registerShare: number;
}): number {
  const ticksPerCycle = Math.max(1, (options.cycleSeconds * 1000) / options.tickMs);
  const evenShare = Math.ceil((options.watchedNumbers / ticksPerCycle) * CATCH_UP_FACTOR);
  const budget = Math.max(1, Math.floor((options.registerPerSecond * options.registerShare * options.tickMs) / 1000));
  return Math.min(evenShare, budget);
}
