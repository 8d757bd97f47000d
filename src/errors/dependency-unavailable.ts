import { CommitDeadlinePassed } from '../database/commit-within';

// How Node's sockets report a server they cannot reach, whichever client's.
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATEs of a server that is going away or refusing work: 57014 is a statement timeout.
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300']);

// node-postgres reports its own timeouts and dropped connections by message only.
const DATABASE_UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Query read timeout/;

/**
 * Whether an error from a database call means the database could not be reached or did not
 * answer in time (as opposed to a bug or a constraint), so that the caller may answer "try
 * again later" instead of "internal error". TypeORM wraps the driver's error in driverError.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof CommitDeadlinePassed) return true;
  const { code, message, driverError } = error as { code?: unknown; message?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error && isDatabaseUnavailable(driverError)) return true;
  if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) {
    return true;
  }
  return typeof message === 'string' && DATABASE_UNAVAILABLE_MESSAGE.test(message);
}

// ioredis reports an unreachable, closed or frozen server by message only; a cluster whose slots are moving during a
// failover by its redirection limit, an unrefreshable slot map, CLUSTERDOWN, or a redirection it handed back instead
// of following (an auto-pipelined call's MOVED or ASK while the slot map changes).
const REDIS_UNAVAILABLE_MESSAGE =
  /^(Command timed out|Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false|Reached the max retries per request limit|connect ETIMEDOUT|Too many Cluster redirections|Failed to refresh slots cache|CLUSTERDOWN|MOVED \d+ |ASK \d+ )/;

/**
 * Whether an error from a Redis call (ours or BullMQ's) means Redis could not be reached or did not
 * answer within DEPENDENCY_TIMEOUT_MS, as opposed to a bug: the caller may answer "try again later".
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
  return typeof message === 'string' && REDIS_UNAVAILABLE_MESSAGE.test(message);
}

/**
 * Which dependency an error says was away (a pool with no free connection in time, a database or Redis that did not
 * answer), or undefined for any other error. Such an error is a "try again later" wherever it happens, not a bug.
 */
export function unavailableDependency(error: unknown): 'Database' | 'Redis' | undefined {
  if (isDatabaseUnavailable(error)) return 'Database';
  return isRedisUnavailable(error) ? 'Redis' : undefined;
}
