/** Runs `task` for every value with at most `limit` running at once; rejects with the first failure. */
export async function forEachLimited<T>(values: T[], limit: number, task: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < values.length) await task(values[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, lane));
}
