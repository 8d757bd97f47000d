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
  const budget = Math.max(1, Math.floor((recheckBudgetPerSecond(options.registerPerSecond, options.registerShare) * options.tickMs) / 1000));
  return Math.min(evenShare, budget);
}

/** Re-checks per second the register share allows, at least one. */
export function recheckBudgetPerSecond(registerPerSecond: number, registerShare: number): number {
  return Math.max(1, Math.floor(registerPerSecond * registerShare));
}

/**
 * When a number re-checked at `checkedAt` is due again. Counted from when the re-check finished
 * (after the register answered), not from when it was claimed: a lookup that waited in the queue
 * must not bring the next one closer than a full cycle.
 */
export function nextCheckAt(checkedAt: Date, cycleSeconds: number): Date {
  return new Date(checkedAt.getTime() + cycleSeconds * 1000);
}

/**
 * Delays that spread one tick's claimed re-checks evenly over the tick, so that they reach the
 * register at a steady pace instead of a burst at the start of each second.
 */
export function delaysOverTick(claimed: number, tickMs: number): number[] {
  return Array.from({ length: claimed }, (_, index) => Math.floor((index * tickMs) / claimed));
}

/**
 * How many re-checks one worker process runs at once: its share of the lookup slots. Each
 * re-check holds at most one lookup slot while it waits for the register, so across all
 * workers re-checks never hold more than that share of the slots, and a live lookup always
 * finds one free instead of waiting behind re-checks already running.
 */
export function recheckConcurrency(lookupConcurrency: number, registerShare: number): number {
  return Math.max(1, Math.floor(lookupConcurrency * registerShare));
}
