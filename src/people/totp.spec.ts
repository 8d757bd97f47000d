import { acceptedTotpStep, newTotpSecret, totpCode, totpUri } from './totp';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890" in base32; at 59 s the 8-digit code is 94287082.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('computes the RFC 6238 test vector (its last six digits)', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
  });

  it('makes 160-bit base32 secrets, a new one each time', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('writes the otpauth address with issuer and label', () => {
    expect(totpUri('Licence checks', 'jane@acme.example', RFC_SECRET)).toBe(
      `otpauth://totp/Licence%20checks:jane%40acme.example?secret=${RFC_SECRET}&issuer=Licence%20checks`,
    );
  });

  it('accepts the current code and one step either side, and names its step', () => {
    const now = 1_800_000_015_000;
    const step = Math.floor(now / 30_000);
    expect(acceptedTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now), now, null)).toBe(step);
    expect(acceptedTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now, null)).toBe(step - 1);
    expect(acceptedTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now, null)).toBe(step + 1);
    expect(acceptedTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now, null)).toBeNull();
  });

  it('refuses a code of the step already used, or of an earlier one', () => {
    const now = 1_800_000_015_000;
    const step = Math.floor(now / 30_000);
    const code = totpCode(RFC_SECRET, now);
    expect(acceptedTotpStep(RFC_SECRET, code, now, step)).toBeNull();
    expect(acceptedTotpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now, step - 1)).toBeNull();
    expect(acceptedTotpStep(RFC_SECRET, code, now, step - 1)).toBe(step);
  });

  it('refuses what is not six digits, and takes a code typed with a space', () => {
    const now = 1_800_000_015_000;
    const code = totpCode(RFC_SECRET, now);
    expect(acceptedTotpStep(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now, null)).toBe(Math.floor(now / 30_000));
    expect(acceptedTotpStep(RFC_SECRET, '12345', now, null)).toBeNull();
    expect(acceptedTotpStep(RFC_SECRET, 'abcdef', now, null)).toBeNull();
  });
});
