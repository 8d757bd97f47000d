import secureJson from 'secure-json-parse';
import { VALIDATION_MESSAGES, ValidationMessage } from '../errors/error-codes';

export const MAX_REQUEST_BODY_BYTES = 16 * 1024;

/** What a route accepts as its body; a route declares its own with @RouteConfig({ requestBody }). */
export interface BodyPolicy {
  maxBytes: number;
  tooLarge: ValidationMessage;
  /** text/csv accepted besides JSON */
  csv: boolean;
}

export const JSON_BODY: BodyPolicy = { maxBytes: MAX_REQUEST_BODY_BYTES, tooLarge: VALIDATION_MESSAGES.tooLarge, csv: false };

/** A roster of up to 1,000 rows, each with a reference of up to 100 characters, as JSON or CSV. */
export const ROSTER_BODY: BodyPolicy = { maxBytes: 512 * 1024, tooLarge: VALIDATION_MESSAGES.batchTooLarge, csv: true };

/** A watchlist batch: up to 1,000 items as JSON only. */
export const JSON_ROSTER_BODY: BodyPolicy = { ...ROSTER_BODY, csv: false };

/** A text/csv body, decoded as UTF-8 (its BOM kept for the CSV parser to drop); its rows are the route's business. */
export class CsvText {
  constructor(readonly text: string) {}
}

/**
 * A body that could not be decoded. Parsing must not fail by throwing: Fastify parses before
 * Nest's guards run, and the contract wants a bad API key answered 401 even when the body is bad.
 * The validation pipe turns this marker into 400 after authentication.
 */
export class RejectedBody {
  constructor(readonly reason: ValidationMessage) {}
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';', 1)[0].trim().toLowerCase();
}

function decodeCsv(raw: Buffer): CsvText | RejectedBody {
  try {
    return new CsvText(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw));
  } catch {
    return new RejectedBody(VALIDATION_MESSAGES.csvEncoding);
  }
}

/** Decodes a request body into a plain JSON object (or CSV text where the route takes it), or says why it cannot. */
export function decodeRequestBody(
  contentType: string | undefined,
  raw: Buffer,
  policy: BodyPolicy = JSON_BODY,
): object | RejectedBody {
  if (raw.length > policy.maxBytes) return new RejectedBody(policy.tooLarge);
  const mediaType = mediaTypeOf(contentType);
  if (policy.csv && mediaType === 'text/csv') return decodeCsv(raw);
  if (mediaType !== 'application/json') {
    return new RejectedBody(policy.csv ? VALIDATION_MESSAGES.batchContentType : VALIDATION_MESSAGES.contentType);
  }
  let value: unknown;
  try {
    value = secureJson.parse(raw.toString('utf8'), undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch {
    return new RejectedBody(VALIDATION_MESSAGES.notJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return new RejectedBody(VALIDATION_MESSAGES.notJson);
  }
  return value;
}
