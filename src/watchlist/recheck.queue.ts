/** Watchlist re-checks, run only by worker processes. */
export const WATCH_RECHECK_QUEUE = 'watch-recheck';
/** Every second (a BullMQ job scheduler: one tick per second across all workers) claims the numbers now due. */
export const TICK_JOB = 'tick';
export const TICK_SCHEDULER_ID = 'watch-recheck-tick';
export const TICK_INTERVAL_MS = 1000;
/** One claimed number: re-check it and tell its watchers what changed. */
export const RECHECK_JOB = 'recheck';

export interface RecheckJobData {
  licenceNumber: string;
}

/** How long a re-check waits for its lookup before leaving it to the next cycle. */
export const RECHECK_LOOKUP_WAIT_MS = 120_000;
