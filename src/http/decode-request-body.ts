import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES, ValidationMessage } from '../errors/error-codes';

export const MAX_REQUEST_BODY_BYTES = 16 * 1024;

/** What a route accepts as its body; a route declares its own with @RouteConfig({ requestBody }). */
export interface BodyPolicy {
  maxBytes: number;
  tooLarge: ValidationMessage;
  /** text/csv accepted besides JSON: reads the text into the plain object the route's DTO describes */
  csv?: (text: string) => object | RejectedBody;
  /** an HTML form (application/x-www-form-urlencoded) instead of JSON: the console's pages post these */
  form?: boolean;
}

export const JSON_BODY: BodyPolicy = { maxBytes: MAX_REQUEST_BODY_BYTES, tooLarge: VALIDATION_MESSAGES.tooLarge };

/** A console form: a few short fields. */
export const FORM_BODY: BodyPolicy = { maxBytes: MAX_REQUEST_BODY_BYTES, tooLarge: VALIDATION_MESSAGES.tooLarge, form: true };

/** The media types some route decodes, each with its own Fastify parser (configureHttp); any other is refused. */
export const DECODED_MEDIA_TYPES = ['application/json', 'text/csv', 'application/x-www-form-urlencoded'] as const;
export type DecodedMediaType = (typeof DECODED_MEDIA_TYPES)[number];

/** A roster of up to 1,000 rows, each with a reference of up to 100 characters. */
export const JSON_ROSTER_BODY: BodyPolicy = { maxBytes: 512 * 1024, tooLarge: FEATURE_VALIDATION_MESSAGES.batchTooLarge };

/**
 * A text/csv body, decoded as UTF-8 (its BOM kept for the CSV parser to drop). It is read by its route's
 * reader only in the validation pipe, after the API key guard: no caller without a key makes us parse CSV.
 */
export class CsvText {
  constructor(
    readonly text: string,
    private readonly reader: (text: string) => object | RejectedBody,
  ) {}

  read(): object | RejectedBody {
    return this.reader(this.text);
  }
}

/**
 * How deep objects and arrays may nest. Every valid body nests less deeply; a deeper one is refused before
 * any reader walks it.
 */
export const MAX_NESTING_DEPTH = 8;

/**
 * A body that could not be decoded. Parsing must not fail by throwing: Fastify parses before
 * Nest's guards run, and the contract wants a bad API key answered 401 even when the body is bad.
 * The validation pipe turns this marker into 400 after authentication.
 */
export class RejectedBody {
  /** a fixed text: one of the table's, or a row's ("Row 3: CSV could not be read …") */
  constructor(readonly reason: string) {}
}

/** How many times `{` or `[` occurs in the text, counting up to limit + 1 at most. */
function openingBrackets(text: string, limit: number): number {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let index = text.indexOf(bracket); index !== -1 && count <= limit; index = text.indexOf(bracket, index + 1)) count++;
  }
  return count;
}

/** Scans JSON text for brackets outside strings, without parsing (and so without recursion). */
function nestsDeeperThan(text: string, limit: number): boolean {
  // A body with no more brackets than the limit cannot nest deeper; indexOf finds that without a loop per character.
  if (openingBrackets(text, limit) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      if (++depth > limit) return true;
    } else if (char === '}' || char === ']') {
      depth--;
    }
  }
  return false;
}

function decodeCsv(raw: Buffer, reader: (text: string) => object | RejectedBody): CsvText | RejectedBody {
  try {
    return new CsvText(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw), reader);
  } catch {
    return new RejectedBody(FEATURE_VALIDATION_MESSAGES.csvEncoding);
  }
}

/**
 * Decodes a request body into a plain JSON object (or CSV text where the route takes it), or says
 * why it cannot be one. `mediaType` is the one whose parser Fastify chose from the Content-Type (none for
 * another type, or for no Content-Type). `size` is the number of bytes received, which exceeds `raw.length`
 * when the reader dropped an oversized body. Keys such as `__proto__` and `constructor` stay ordinary own keys
 * (JSON.parse never assigns a prototype); the validation pipe refuses them as unknown fields.
 */
export function decodeRequestBody(
  mediaType: DecodedMediaType | undefined,
  raw: Buffer,
  policy: BodyPolicy = JSON_BODY,
  size: number = raw.length,
): object | RejectedBody {
  if (size > policy.maxBytes) return new RejectedBody(policy.tooLarge);
  if (policy.csv && mediaType === 'text/csv') return decodeCsv(raw, policy.csv);
  if (policy.form) {
    if (mediaType !== 'application/x-www-form-urlencoded') return new RejectedBody(FEATURE_VALIDATION_MESSAGES.formContentType);
    // Repeated fields keep their last value; every value is a string, which the form's DTO checks like JSON.
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  }
  if (mediaType !== 'application/json') {
    return new RejectedBody(policy.csv ? FEATURE_VALIDATION_MESSAGES.batchContentType : VALIDATION_MESSAGES.contentType);
  }
  // No bytes is no body, as when no Content-Type came: not a syntax error.
  if (raw.length === 0) return new RejectedBody(VALIDATION_MESSAGES.notJson);
  const text = raw.toString('utf8');
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) return new RejectedBody(VALIDATION_MESSAGES.tooDeep);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new RejectedBody(VALIDATION_MESSAGES.invalidJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return new RejectedBody(VALIDATION_MESSAGES.notJson);
  }
  return value;
}
