import { isExpired } from './key-expiry';

describe('isExpired', () => {
  const expiry = new Date('2026-11-10T12:00:01.000Z');

  it('never expires a key without expiry', () => {
    expect(isExpired(null, new Date('2999-01-01T00:00:00Z'))).toBe(false);
  });

  it('accepts the key one millisecond before its expiry', () => {
    expect(isExpired(expiry, new Date('2026-11-10T12:00:00.999Z'))).toBe(false);
  });

  it('refuses the key from the exact moment it expires', () => {
    expect(isExpired(expiry, new Date('2026-11-10T12:00:01.000Z'))).toBe(true);
  });

  it('refuses the key after its expiry', () => {
    expect(isExpired(expiry, new Date('2026-11-11T00:00:00Z'))).toBe(true);
  });
});
