import DataLoader from 'dataloader';

/**
 * Gathers the loads of one event-loop turn and hands them to `runTurn` together at its end, at most 500 at
 * once: one Redis command for many requests, where a command each cost ioredis and Redis about as much as
 * the work itself. Nothing is cached between turns.
 */
export function perTurnLoader<Request, Reply>(runTurn: (requests: readonly Request[]) => Promise<(Reply | Error)[]>): DataLoader<Request, Reply> {
  return new DataLoader<Request, Reply>(runTurn, {
    cache: false,
    batchScheduleFn: (runBatch) => setImmediate(runBatch),
    maxBatchSize: 500,
  });
}
