/** The ioredis options we set; a subset that both ioredis and BullMQ's connection options accept. */
export interface RedisTimeouts {
  connectTimeout: number;
  commandTimeout?: number;
  socketTimeout?: number;
  autoResendUnfulfilledCommands?: boolean;
  enableOfflineQueue?: boolean;
  maxRetriesPerRequest?: number | null;
  retryStrategy: (attempt: number) => number;
}

// Long enough not to hammer a Redis that is restarting, short enough to be back within 2 s of it.
const RECONNECT_STEP_MS = 100;
const RECONNECT_CAP_MS = 500;

/** Delay before reconnect attempt number `attempt` (1, 2, ...): grows a little, then stays at the cap. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * RECONNECT_STEP_MS, RECONNECT_CAP_MS);
}

const SOCKET_BEFORE_COMMAND_MS = 50;

/**
 * For clients that answer requests (our key-value store, BullMQ queues that add jobs): a command
 * fails within `timeoutMs` when Redis is down or frozen instead of waiting in an offline queue
 * for the whole outage, so the request can answer 503 at once. A connection that gets no answer
 * for that long is dropped (socketTimeout), so a frozen Redis is an outage like a stopped one:
 * logged once, and reconnected until it answers; commands whose callers gave up are not resent.
 */
export function failFastRedisOptions(timeoutMs: number): RedisTimeouts {
  return {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Shorter than the command timeout: ioredis sends an auto-pipeline only once the previous one has settled,
    // so with a frozen Redis each batch behind the first would wait a whole timeout of its own. Dropped first,
    // the connection is unwritable by then, and the batches waiting behind fail at once.
    socketTimeout: timeoutMs - SOCKET_BEFORE_COMMAND_MS,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelayMs,
  };
}

/**
 * For BullMQ workers and queue events, which block on Redis for seconds by design: no command
 * timeout (it would cut their blocking reads) and an offline queue so that they resume by
 * themselves after an outage (BullMQ sets maxRetriesPerRequest to null for them).
 */
export function blockingRedisOptions(timeoutMs: number): RedisTimeouts {
  return { connectTimeout: timeoutMs, retryStrategy: reconnectDelayMs };
}
