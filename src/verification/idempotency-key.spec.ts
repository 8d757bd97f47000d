import { createHash } from 'node:crypto';
import { isValidIdempotencyKey } from '../validation/idempotency-key';
import { deriveIdempotencyKey, idempotencyRecordId } from './idempotency-key';

describe('deriveIdempotencyKey', () => {
  const USER = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890';
  const OTHER_USER = '6f1c2d3e-4a5b-4c6d-8e7f-901234567891';
  const NUMBER = '1234567890123456';
  const OTHER_NUMBER = '1234567890123457';

  it('is deterministic for the same user and number', () => {
    expect(deriveIdempotencyKey(USER, NUMBER)).toBe(deriveIdempotencyKey(USER, NUMBER));
  });

  it('is "auto-" followed by the first 40 hex digits of sha256("user:number")', () => {
    const digest = createHash('sha256').update(`${USER}:${NUMBER}`).digest('hex');
    expect(deriveIdempotencyKey(USER, NUMBER)).toBe(`auto-${digest.slice(0, 40)}`);
  });

  it('has the shape auto- plus 40 lower-case hex digits', () => {
    expect(deriveIdempotencyKey(USER, NUMBER)).toMatch(/^auto-[0-9a-f]{40}$/);
  });

  it('differs for another user asking for the same number', () => {
    expect(deriveIdempotencyKey(OTHER_USER, NUMBER)).not.toBe(deriveIdempotencyKey(USER, NUMBER));
  });

  it('differs for the same user asking for another number', () => {
    expect(deriveIdempotencyKey(USER, OTHER_NUMBER)).not.toBe(deriveIdempotencyKey(USER, NUMBER));
  });

  it('does not contain the licence number', () => {
    expect(deriveIdempotencyKey(USER, NUMBER).includes(NUMBER)).toBe(false);
  });

  it('is itself a valid client idempotency key', () => {
    expect(isValidIdempotencyKey(deriveIdempotencyKey(USER, NUMBER))).toBe(true);
  });
});

describe('idempotencyRecordId', () => {
  const derived = deriveIdempotencyKey('7', '1234567890123456');

  it('keeps a derived key as it is: it is a digest already', () => {
    expect(idempotencyRecordId(derived)).toBe(derived);
  });

  it("hashes a client's key to 64 hex digits, which no derived key can be", () => {
    const key = 'order-42/attempt 1';
    expect(idempotencyRecordId(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(idempotencyRecordId(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['upper-case hex', derived.toUpperCase().replace('AUTO-', 'auto-')],
    ['one digit short', derived.slice(0, -1)],
    ['one digit more', `${derived}0`],
    ['no prefix', derived.slice('auto-'.length)],
  ])('hashes a key that only looks derived (%s)', (_case, key) => {
    expect(idempotencyRecordId(key)).toBe(createHash('sha256').update(key).digest('hex'));
  });
});
