/** Why the register gave no HTTP answer, in the words an operator searches for. */
export type UnreachableReason = 'DNS failure' | 'connection refused' | 'timeout' | 'TLS failure' | 'connection reset' | 'network unreachable';

const REASON_BY_CODE: Readonly<Record<string, UnreachableReason>> = {
  ENOTFOUND: 'DNS failure',
  EAI_AGAIN: 'DNS failure',
  EAI_FAIL: 'DNS failure',
  ECONNREFUSED: 'connection refused',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  EPROTO: 'TLS failure',
  // OpenSSL's verification codes without CERT or CRL in their names
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS failure',
  INVALID_CA: 'TLS failure',
  PATH_LENGTH_EXCEEDED: 'TLS failure',
  INVALID_PURPOSE: 'TLS failure',
  HOSTNAME_MISMATCH: 'TLS failure',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection reset',
  EHOSTUNREACH: 'network unreachable',
  EHOSTDOWN: 'network unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network unreachable',
};

/**
 * The reason behind a system, undici or TLS error code when it means the register could not be reached;
 * null for any other code. Node's TLS codes (ERR_TLS_*, ERR_SSL_*) and OpenSSL's verification codes
 * (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, CRL_HAS_EXPIRED, ...) are TLS failures.
 */
export function unreachableReason(code: string): UnreachableReason | null {
  if (Object.hasOwn(REASON_BY_CODE, code)) return REASON_BY_CODE[code];
  if (/^ERR_(TLS|SSL)_|CERT|CRL/.test(code)) return 'TLS failure';
  return null;
}

/**
 * The system or undici error code, looking through wrappers (AggregateError from dual-stack
 * connects, causes). Duck-typed: errors from Node's core may come from another realm (e.g. under Jest).
 */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if ('errors' in error && Array.isArray(error.errors)) return errorCode(error.errors[0]);
  return 'cause' in error ? errorCode(error.cause) : undefined;
}
