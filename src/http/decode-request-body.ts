import { VALIDATION_MESSAGES, ValidationMessage } from '../errors/error-codes';

export const MAX_REQUEST_BODY_BYTES = 16 * 1024;

/**
 * How deep objects and arrays may nest. A valid body has depth 1; the limit only has to stop
 * class-transformer and class-validator, which recurse, from overflowing the stack.
 */
export const MAX_NESTING_DEPTH = 8;

/**
 * A body that could not be decoded. Parsing must not fail by throwing: Fastify parses before
 * Nest's guards run, and the contract wants a bad API key answered 401 even when the body is bad.
 * The validation pipe turns this marker into 400 after authentication.
 */
export class RejectedBody {
  constructor(readonly reason: ValidationMessage) {}
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0].trim().toLowerCase();
  return mediaType === 'application/json';
}

/** Scans JSON text for brackets outside strings, without parsing (and so without recursion). */
function nestsDeeperThan(text: string, limit: number): boolean {
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

/**
 * Decodes a request body into a plain JSON object, or says why it cannot be one. `size` is the
 * number of bytes received, which exceeds `raw.length` when the reader dropped an oversized body.
 * Keys such as `__proto__` and `constructor` stay ordinary own keys (JSON.parse never assigns a
 * prototype); the validation pipe rejects them as unknown fields before anything copies them.
 */
export function decodeRequestBody(
  contentType: string | undefined,
  raw: Buffer,
  size: number = raw.length,
): object | RejectedBody {
  if (size > MAX_REQUEST_BODY_BYTES) return new RejectedBody(VALIDATION_MESSAGES.tooLarge);
  if (!isJsonMediaType(contentType)) return new RejectedBody(VALIDATION_MESSAGES.contentType);
  const text = raw.toString('utf8');
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH)) return new RejectedBody(VALIDATION_MESSAGES.tooDeep);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new RejectedBody(VALIDATION_MESSAGES.notJson);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return new RejectedBody(VALIDATION_MESSAGES.notJson);
  }
  return value;
}
