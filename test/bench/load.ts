import { performance } from 'node:perf_hooks';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** HTTP statuses (or 'error') and how often each came back */
  outcomes: Record<string, number>;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** Runs `count` calls with at most `concurrency` in flight; latencies in milliseconds. */
export async function runLoad(count: number, concurrency: number, call: (index: number) => Promise<string>): Promise<LoadResult> {
  const latencies: number[] = [];
  const outcomes: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const begin = performance.now();
        const outcome = await call(index).catch(() => 'error');
        latencies.push(performance.now() - begin);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: count,
    seconds,
    perSecond: count / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    outcomes,
  };
}
