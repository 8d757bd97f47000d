/**
 * Seconds since a Redis stream entry was added, from its id (`<milliseconds>-<sequence>`, as XADD '*' makes it)
 * and Redis's own clock, so that no host's clock skews it; never below 0.
 */
export function streamEntryAgeSeconds(entryId: string, redisNowMs: number): number {
  const milliseconds = /^(\d+)-\d+$/.exec(entryId)?.[1];
  if (milliseconds === undefined) throw new Error(`Not a stream entry id: ${entryId}`);
  return Math.max(0, redisNowMs - Number(milliseconds)) / 1000;
}

/** Redis's TIME reply (seconds, microseconds) in milliseconds. */
export function redisTimeMs([seconds, microseconds]: readonly (string | number)[]): number {
  return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
}
