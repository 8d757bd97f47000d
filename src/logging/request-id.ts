// What a caller may send as X-Request-Id: visible ASCII, short enough to log on every line.
const ACCEPTABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's X-Request-Id when it is sane, otherwise a fresh one. */
export function chooseRequestId(header: unknown, generate: () => string): string {
  return typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : generate();
}
