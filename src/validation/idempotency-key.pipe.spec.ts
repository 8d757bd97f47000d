import { IdempotencyKeyPipe } from './idempotency-key.pipe';

describe('IdempotencyKeyPipe', () => {
  const pipe = new IdempotencyKeyPipe();

  it('leaves an absent header absent, so that the service derives the key', () => {
    expect(pipe.transform(undefined)).toBeUndefined();
  });

  it('passes a valid key through unchanged', () => {
    expect(pipe.transform('order-42/attempt:1')).toBe('order-42/attempt:1');
  });

  it.each([
    ['an empty value', ''],
    ['a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé'],
    ['repeated headers', ['a', 'b']],
  ])('answers %s with 400 and the contract message', (_what, value) => {
    expect(() => pipe.transform(value)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', status: 400, publicMessage: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }),
    );
  });
});
