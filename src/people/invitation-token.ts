import { createHash, randomBytes } from 'node:crypto';

/** A new one-time token (256 random bits, base64url) for a link, and the SHA-256 hash that is all we store of it. */
export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** The stored form of a token: a fast hash is enough for 256 random bits, and lets a link be looked up by it. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** When an invitation made at `now` stops working: `hours` later (INVITATION_HOURS). */
export function invitationExpiresAt(now: Date, hours: number): Date {
  return new Date(now.getTime() + hours * 3600_000);
}

export type InvitationState = 'open' | 'expired' | 'used';

/** Whether an invitation may still be taken at `now`: once only, and before its expiry. */
export function invitationState(expiresAt: Date, usedAt: Date | null, now: Date): InvitationState {
  if (usedAt !== null) return 'used';
  return now.getTime() < expiresAt.getTime() ? 'open' : 'expired';
}
