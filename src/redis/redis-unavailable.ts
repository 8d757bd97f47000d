// ioredis reports an unreachable, closed or frozen server by message only; a cluster whose slots are moving during a
// failover by its redirection limit, an unrefreshable slot map, CLUSTERDOWN, or a redirection it handed back instead
// of following (an auto-pipelined call's MOVED or ASK while the slot map changes).
const UNAVAILABLE_MESSAGE =
  /^(Command timed out|Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false|Reached the max retries per request limit|connect ETIMEDOUT|Too many Cluster redirections|Failed to refresh slots cache|CLUSTERDOWN|MOVED \d+ |ASK \d+ )/;
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether an error from a Redis call (ours or BullMQ's) means Redis could not be reached or did not
 * answer within DEPENDENCY_TIMEOUT_MS, as opposed to a bug: the caller may answer "try again later".
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}
