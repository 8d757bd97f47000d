import { hashInvitationToken, invitationExpiresAt, invitationState, newInvitationToken } from './invitation-token';

describe('invitation tokens', () => {
  it('are 256 random bits in base64url, stored as their SHA-256', () => {
    const { token, hash } = newInvitationToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(hashInvitationToken(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(newInvitationToken().token).not.toBe(token);
  });

  it('expire the given hours after they are made', () => {
    expect(invitationExpiresAt(new Date('2026-11-29T06:00:00Z'), 72)).toEqual(new Date('2026-12-02T06:00:00Z'));
  });

  it('are open until their expiry, then expired; used once, used for good', () => {
    const expiresAt = new Date('2026-12-02T06:00:00Z');
    expect(invitationState(expiresAt, null, new Date('2026-12-02T05:59:59.999Z'))).toBe('open');
    expect(invitationState(expiresAt, null, expiresAt)).toBe('expired');
    expect(invitationState(expiresAt, new Date('2026-11-30T00:00:00Z'), new Date('2026-11-30T00:00:01Z'))).toBe('used');
  });
});
