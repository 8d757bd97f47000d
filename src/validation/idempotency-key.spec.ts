import { createHash } from 'node:crypto';
import { deriveIdempotencyKey, IDEMPOTENCY_KEY_PATTERN, idempotencyRecordId, isValidIdempotencyKey } from './idempotency-key';

describe('isValidIdempotencyKey', () => {
  it('accepts a single character', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
  });

  it('accepts 255 characters', () => {
    expect(isValidIdempotencyKey('k'.repeat(255))).toBe(true);
  });

  it('rejects the empty string (0 characters)', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
  });

  it('rejects 256 characters', () => {
    expect(isValidIdempotencyKey('k'.repeat(256))).toBe(false);
  });

  it('accepts a UUID', () => {
    expect(isValidIdempotencyKey('3f2b8a9e-1c4d-4e5f-9a0b-123456789abc')).toBe(true);
  });

  it('accepts every visible ASCII character 0x21..0x7e in one key', () => {
    let all = '';
    for (let code = 0x21; code <= 0x7e; code += 1) all += String.fromCharCode(code);
    expect(all.length).toBe(94);
    expect(isValidIdempotencyKey(all)).toBe(true);
  });

  it.each(
    Array.from({ length: 0x7e - 0x21 + 1 }, (_, index) => {
      const code = 0x21 + index;
      return [`0x${code.toString(16)}`, String.fromCharCode(code)];
    }),
  )('accepts the single visible ASCII character %s (%j)', (_hex, character) => {
    expect(isValidIdempotencyKey(character)).toBe(true);
  });

  it.each([
    ['a space inside', 'abc def'],
    ['a lone space', ' '],
    ['a leading space', ' abc'],
    ['a trailing space', 'abc '],
    ['a tab', 'abc\tdef'],
    ['a trailing newline', 'abc\n'],
    ['a carriage return', 'abc\rdef'],
    ['a NUL character', 'abc\u0000'],
    ['DEL (0x7f)', 'abc\u007f'],
    ['0x20 alone', '\u0020'],
    ['a non-ASCII letter (é)', 'café'],
    ['a non-breaking space (0xa0)', 'abc\u00a0def'],
    ['an emoji', 'key-\u{1f511}'],
  ])('rejects a key with %s', (_what, key) => {
    expect(isValidIdempotencyKey(key)).toBe(false);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 12345],
    ['an array of one valid key', ['abc']],
    ['an array of two valid keys', ['abc', 'def']],
    ['an object', { key: 'abc' }],
    ['a boolean', true],
  ])('rejects %s', (_what, value) => {
    expect(isValidIdempotencyKey(value)).toBe(false);
  });
});

describe('IDEMPOTENCY_KEY_PATTERN', () => {
  it('is the rule isValidIdempotencyKey applies, for the forms that restate it', () => {
    expect(IDEMPOTENCY_KEY_PATTERN.source).toBe('^[\\x21-\\x7E]{1,255}$');
  });
});

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
