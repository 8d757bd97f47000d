import { CommitDeadlinePassed } from './commit-within';

const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATEs of a server that is going away or refusing work: 57014 is a statement timeout.
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300']);

// node-postgres reports its own timeouts and dropped connections by message only.
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Query read timeout/;

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
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}
