import { cappedExpiry, isExpired, parseExpiry } from './key-expiry';

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

describe('cappedExpiry', () => {
  const issuer = new Date('2027-03-01T00:00:00Z');

  it('gives a key asked never to expire the expiry of its issuer', () => {
    expect(cappedExpiry(null, issuer)).toEqual(issuer);
  });

  it("caps a later expiry to the issuer's", () => {
    expect(cappedExpiry(new Date('2027-03-01T00:00:00.001Z'), issuer)).toEqual(issuer);
  });

  it("keeps an expiry no later than the issuer's", () => {
    expect(cappedExpiry(new Date('2027-02-28T23:59:59Z'), issuer)).toEqual(new Date('2027-02-28T23:59:59Z'));
    expect(cappedExpiry(issuer, issuer)).toEqual(issuer);
  });

  it('keeps whatever was asked when the issuer never expires', () => {
    expect(cappedExpiry(null, null)).toBeNull();
    expect(cappedExpiry(issuer, null)).toEqual(issuer);
  });
});

describe('parseExpiry', () => {
  it.each([
    ['2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['2027-01-31T10:00Z', '2027-01-31T10:00:00.000Z'],
    ['2027-01-31T10:00:00+01:00', '2027-01-31T09:00:00.000Z'],
  ])('reads %s', (text, instant) => {
    expect(parseExpiry(text)?.toISOString()).toBe(instant);
  });

  it.each(['2027-02-30', '2027-01-31T10:00', 'tomorrow', '31/01/2027'])('refuses %s', (text) => {
    expect(parseExpiry(text)).toBeNull();
  });

  it('reads up to 40 characters, as the document says, and refuses a longer one unread', () => {
    expect(parseExpiry(`2027-01-31T10:00:00.${'1'.repeat(19)}Z`)?.toISOString()).toBe('2027-01-31T10:00:00.111Z');
    expect(parseExpiry(`2027-01-31T10:00:00.${'1'.repeat(20)}Z`)).toBeNull();
  });
});
