/** What a check of one alert's condition asks for: send its alert (start), its recovery (end), or nothing. */
export type EpisodeStep = 'start' | 'end' | null;

/**
 * An alert is sent once per episode: when its condition turns bad while no episode is open, and its recovery when
 * the condition clears while one is. Checks in between, however many, send nothing.
 */
export function episodeStep(open: boolean, bad: boolean): EpisodeStep {
  if (bad && !open) return 'start';
  if (!bad && open) return 'end';
  return null;
}

/** Whether a condition bad since `badSinceMs` (null: fine) has lasted the threshold by `nowMs`. */
export function lastedThreshold(badSinceMs: number | null, nowMs: number, thresholdMs: number): boolean {
  return badSinceMs !== null && nowMs - badSinceMs >= thresholdMs;
}
