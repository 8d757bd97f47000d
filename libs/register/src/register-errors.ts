import { collapseWhiteSpace } from './collapse-white-space';
import type { UnreachableReason } from './unreachable-reason';

/** Longest excerpt of a response body that an error carries, for logs. */
const EXCERPT_MAX_CHARS = 200;

export interface RegisterErrorDetails {
  httpStatus?: number | null;
  excerpt?: string | null;
  cause?: unknown;
}

/** Base of every error the register client throws on purpose. */
export class RegisterError extends Error {
  readonly httpStatus: number | null;
  readonly excerpt: string | null;

  constructor(message: string, details: RegisterErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.httpStatus = details.httpStatus ?? null;
    this.excerpt = details.excerpt ?? null;
  }
}

/** The register could not be reached or asked us to come back later: worth retrying. */
export class RegisterUnavailableError extends RegisterError {}

/** The register gave no HTTP answer at all (DNS, refused, timeout, TLS...): its message names why, and the host. */
export class RegisterUnreachableError extends RegisterUnavailableError {
  /**
   * @param host the register's host and port, as in its URL
   * @param detail what was seen: the error code, or the deadline that passed
   */
  constructor(
    readonly host: string,
    readonly reason: UnreachableReason,
    detail: string,
    details: RegisterErrorDetails = {},
  ) {
    super(`Register ${host} unreachable: ${reason} (${detail})`, details);
  }
}

/** The register answered something we do not understand: retrying will not help. */
export class RegisterParseError extends RegisterError {}

/** The start of a body with white space collapsed, short enough for a log line; null when empty. */
export function bodyExcerpt(body: string): string | null {
  // Collapsing a prefix is enough and keeps this cheap on a body of megabytes.
  const collapsed = collapseWhiteSpace(body.slice(0, EXCERPT_MAX_CHARS * 4));
  return collapsed === '' ? null : collapsed.slice(0, EXCERPT_MAX_CHARS);
}
