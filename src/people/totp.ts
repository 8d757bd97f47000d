import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;

/** A new shared secret: 160 random bits in base32, as RFC 4226 recommends and authenticator apps expect. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// address an authenticator app reads from the QR code: the issuer, then the person's label. */
export function totpUri(issuer: string, label: string, secret: string): string {
  return generateURI({ issuer, label, secret, period: TOTP_PERIOD_SECONDS });
}

/** The code an authenticator shows at `nowMs` (tests and the person's own app compute the same). */
export function totpCode(secret: string, nowMs: number): string {
  return generateSync({ secret, epoch: Math.floor(nowMs / 1000), period: TOTP_PERIOD_SECONDS });
}

/**
 * The time step a code belongs to when it is right at `nowMs` (one step either side, for a phone's clock that
 * drifts) and newer than `lastUsedStep`, the step of the last code this person used; null otherwise. The caller
 * stores the step it returns, only if it is still newer than the stored one, so that a code (or an older one)
 * is never taken twice, even by two sign-ins at once.
 */
export function acceptedTotpStep(secret: string, code: string, nowMs: number, lastUsedStep: number | null): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(lastUsedStep === null ? {} : { afterTimeStep: lastUsedStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
