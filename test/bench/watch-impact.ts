import { verify } from './batch-impact';
import { LoadResult, runLoad } from './load';

export interface WatchImpactOptions {
  baseUrl: string;
  /** the key whose watchlist gets the numbers to re-check */
  watchKey: string;
  /** the key of the partner verifying single numbers meanwhile */
  verifyKey: string;
  /** numbers to watch: new ones, so that every re-check goes to the register */
  watchNumbers: string[];
  /** numbers for single verifications, none watched; half are used before the cycle, half during it */
  verifyNumbers: string[];
  /** single verifications in flight at once */
  concurrency?: number;
}

export interface WatchImpact {
  /** live verifications of new numbers with no re-check running (the baseline) */
  withoutCycle: LoadResult;
  /** the same while the watched numbers are being re-checked */
  duringCycle: LoadResult;
  /** duringCycle p50 / withoutCycle p50: the issue asks for at most 1.1 */
  p50Ratio: number;
}

/**
 * "While a cycle runs, live verify latency stays within 10 % of its value without the cycle":
 * live verifications of new numbers alone, then while the watched numbers are re-checked at the
 * lowest priority through the same queue and register rate limit. Start the API and worker with a
 * short WATCH_RECHECK_SECONDS so that the re-checks keep running during the second half.
 */
export async function measureWatchImpact(options: WatchImpactOptions): Promise<WatchImpact> {
  const { baseUrl, watchKey, verifyKey, watchNumbers, verifyNumbers } = options;
  const concurrency = options.concurrency ?? 4;
  const half = Math.floor(verifyNumbers.length / 2);
  const withoutCycle = await runLoad(half, concurrency, (index) => verify(baseUrl, verifyKey, verifyNumbers[index]));

  const added = await fetch(`${baseUrl}/v1/watchlist:batchAdd`, {
    method: 'POST',
    headers: { 'x-api-key': watchKey, 'content-type': 'application/json' },
    body: JSON.stringify({ items: watchNumbers.map((licenceNumber) => ({ licenceNumber })) }),
  });
  if (added.status !== 200) throw new Error(`POST /v1/watchlist:batchAdd answered ${added.status}`);
  // The added numbers are due at once: give the first ticks time to queue their re-checks.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const duringCycle = await runLoad(verifyNumbers.length - half, concurrency, (index) =>
    verify(baseUrl, verifyKey, verifyNumbers[half + index]),
  );
  return { withoutCycle, duringCycle, p50Ratio: duringCycle.p50 / withoutCycle.p50 };
}
