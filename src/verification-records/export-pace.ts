/** How often an export's pace is measured, over the bytes its client took since the last time. */
export const EXPORT_PACE_WINDOW_MS = 10_000;

/** Whether a download whose client took `bytes` in the last window reads slower than `minBytesPerSecond`. */
export function readsTooSlowly(bytes: number, windowMs: number, minBytesPerSecond: number): boolean {
  return bytes * 1000 < minBytesPerSecond * windowMs;
}
