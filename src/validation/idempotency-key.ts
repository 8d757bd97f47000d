/** The characters of an Idempotency-Key: visible ASCII, 0x21 to 0x7e, so no spaces, controls or other scripts. */
export const IDEMPOTENCY_KEY_CHARACTER = '[\\x21-\\x7E]';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^${IDEMPOTENCY_KEY_CHARACTER}{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** Whether a client-supplied Idempotency-Key header is acceptable. */
export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}
