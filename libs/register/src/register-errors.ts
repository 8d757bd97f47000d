import { collapseWhiteSpace } from './collapse-white-space';

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

/** The register answered something we do not understand: retrying will not help. */
export class RegisterParseError extends RegisterError {}

/** The start of a body with white space collapsed, short enough for a log line; null when empty. */
export function bodyExcerpt(body: string): string | null {
  // Collapsing a prefix is enough and keeps this cheap on a body of megabytes.
  const collapsed = collapseWhiteSpace(body.slice(0, EXCERPT_MAX_CHARS * 4));
  return collapsed === '' ? null : collapsed.slice(0, EXCERPT_MAX_CHARS);
}
