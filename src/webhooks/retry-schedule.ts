/** "0,5,300" (validated by the config schema) as seconds to wait before each delivery attempt. */
export function parseRetrySchedule(setting: string): number[] {
  return setting.split(',').map(Number);
}

/** Milliseconds to wait before the attempt after `attemptsMade` tries, or null when none is left. */
export function delayBeforeNextAttemptMs(schedule: readonly number[], attemptsMade: number): number | null {
  return attemptsMade < schedule.length ? schedule[attemptsMade] * 1000 : null;
}

/** An endpoint failing this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;
