import DataLoader from 'dataloader';

// Enough for any turn under load (64 connections bring a few dozen), small enough for one write.
const MAX_BATCH = 500;

/**
 * Calls made during one turn of the event loop, run together at its end: requests arriving together
 * share one round trip to PostgreSQL or Redis instead of one each (on this machine the round trip, not
 * the query, was most of a request's cost). Each call still starts after its request arrived, and
 * nothing is cached between turns. `run` answers the keys in their order, an Error for a key that failed.
 */
export function batchPerTurn<Key, Value>(run: (keys: readonly Key[]) => Promise<readonly (Value | Error)[]>): DataLoader<Key, Value> {
  return new DataLoader<Key, Value>(run, { cache: false, batchScheduleFn: (runBatch) => setImmediate(runBatch), maxBatchSize: MAX_BATCH });
}
