/** How often a key's last use is written: the list of keys shows it to the minute. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/** Whether a use of a key at `now` is worth writing, given when this process last wrote one (undefined: never). */
export function isUseWorthRecording(lastRecordedMs: number | undefined, nowMs: number): boolean {
  return lastRecordedMs === undefined || nowMs - lastRecordedMs >= KEY_USE_RESOLUTION_MS;
}
