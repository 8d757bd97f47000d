import { ERROR_CODES, ErrorCode, VALIDATION_MESSAGES } from './error-codes';

interface ContractError {
  code: ErrorCode;
  message?: string;
}

/** What leaves the process for an error: the status and exactly the contract's {code, message}. */
export interface ErrorAnswer {
  status: number;
  body: { code: ErrorCode; message: string };
}

export function toErrorAnswer({ code, message }: ContractError): ErrorAnswer {
  return { status: ERROR_CODES[code].status, body: { code, message: message ?? ERROR_CODES[code].message } };
}

// The contract defines only 401 and 500 for its quota endpoint, so there a database or Redis that is away stays an internal error.
const ROUTES_WITHOUT_UNAVAILABLE = new Set(['/v1/quota/usage']);

/** The answer when the database or Redis could not be reached in time: "try again later", except where the contract forbids it. */
export function dependencyUnavailableCode(routeUrl: string | undefined): ErrorCode {
  return routeUrl !== undefined && ROUTES_WITHOUT_UNAVAILABLE.has(routeUrl) ? 'INTERNAL_ERROR' : 'SERVICE_UNAVAILABLE';
}

/**
 * Maps an error raised by Nest or Fastify (not by our code) to the closest contract code.
 * Returns null when the error is not a recognised client error, which makes it a 500.
 */
export function mapFrameworkError(status: number | undefined, fastifyCode?: string): ContractError | null {
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.tooLarge };
  }
  if (fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.contentType };
  }
  // The router's answer to a path it cannot decode; Fastify's own message would echo the path.
  if (fastifyCode === 'FST_ERR_BAD_URL' || status === 414) return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.badUrl };
  if (status === 404 || status === 405) return { code: 'ROUTE_NOT_FOUND' };
  if (status === 401 || status === 403) return { code: 'UNAUTHORIZED' };
  if (status !== undefined && status >= 400 && status < 500) {
    return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.notJson };
  }
  return null;
}

/**
 * Maps an error of Node's HTTP parser or its request timer (the server's 'clientError' event) to
 * the contract. Returns null when the client is gone (connection reset), so nothing is answered.
 */
export function mapClientError(nodeCode: string | undefined): ContractError | null {
  if (nodeCode === 'ECONNRESET') return null;
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'REQUEST_TIMEOUT' };
  // A request line or header block over Node's limit (16 KiB): a long URL lands here too.
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return { code: 'HEADERS_TOO_LARGE' };
  return { code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.malformedRequest };
}

/**
 * True for the error a request stream raises when its client disconnects before the body arrived:
 * an everyday event, not a fault of ours. The code alone is not enough (a Redis connection reset has
 * it too), so the client's socket must be gone as well.
 */
export function isClientAbort(error: unknown, clientSocketDestroyed: boolean): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return clientSocketDestroyed && (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE');
}
