import secureJson from 'secure-json-parse';
import { VALIDATION_MESSAGES, ValidationMessage } from '../errors/error-codes';

export const MAX_REQUEST_BODY_BYTES = 16 * 1024;

/**
 * A body that could not be decoded. Parsing must not fail by throwing: Fastify parses before
 * Nest's guards run, and the contract wants a bad API key answered 401 even when the body is bad.
 * The validation pipe turns this marker into 400 after authentication.
 */
export class RejectedBody {
  constructor(readonly reason: ValidationMessage) {}
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';', 1)[0].trim().toLowerCase();
  return mediaType === 'application/json';
}

/** Decodes a request body into a plain JSON object, or says why it cannot be one. */
export function decodeRequestBody(contentType: string | undefined, raw: Buffer): object | RejectedBody {
  if (raw.length > MAX_REQUEST_BODY_BYTES) return new RejectedBody(VALIDATION_MESSAGES.tooLarge);
  if (!isJsonMediaType(contentType)) return new RejectedBody(VALIDATION_MESSAGES.contentType);
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
