import { hash } from 'node:crypto';

/** The characters of an Idempotency-Key: visible ASCII, 0x21 to 0x7e, so no spaces, controls or other scripts. */
export const IDEMPOTENCY_KEY_CHARACTER = '[\\x21-\\x7E]';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^${IDEMPOTENCY_KEY_CHARACTER}{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** Whether a client-supplied Idempotency-Key header is acceptable. */
export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}

/**
 * The key used when the client sends none: the same user asking for the same number is the
 * same verification. Hashed so that headers and Redis keys do not carry the licence number.
 */
export function deriveIdempotencyKey(userId: string, licenceNumber: string): string {
  return `auto-${hash('sha256', `${userId}:${licenceNumber}`, 'hex').slice(0, 40)}`;
}

const DERIVED_KEY = /^auto-[0-9a-f]{40}$/;

/**
 * What stands for an idempotency key in its Redis record's name. A client's key is hashed (it may be up to 255
 * characters of anything visible); a derived key is a digest already, and hashing it again cost a sha256 on every
 * repeat. A hashed key is 64 hex digits, so it never names a derived key's record.
 */
export function idempotencyRecordId(idempotencyKey: string): string {
  return DERIVED_KEY.test(idempotencyKey) ? idempotencyKey : hash('sha256', idempotencyKey, 'hex');
}
