import { signInRefused, ssoChanges, ssoMayGive, ssoMemberStep, SsoSettings } from './member-sso';

describe('ssoMayGive', () => {
  it('gives any role but owner to a person signing in for the first time', () => {
    expect((['owner', 'admin', 'developer', 'compliance', 'viewer'] as const).map(ssoMayGive)).toEqual([false, true, true, true, true]);
  });
});

describe('signInRefused', () => {
  it('refuses a password and a passkey where single sign-on is required, and nowhere else', () => {
    expect(signInRefused('password', { required: true })).toBe(true);
    expect(signInRefused('passkey', { required: true })).toBe(true);
    expect(signInRefused('password', { required: false })).toBe(false);
    expect(signInRefused('passkey', null)).toBe(false);
    expect(signInRefused('password', null)).toBe(false);
  });

  it('refuses single sign-on where the account has none, required or not', () => {
    expect(signInRefused('sso', null)).toBe(true);
    expect(signInRefused('sso', { required: false })).toBe(false);
    expect(signInRefused('sso', { required: true })).toBe(false);
  });
});

describe('ssoMemberStep', () => {
  it('creates a new person, lets an invited one join and an active one sign in, and refuses disabled and removed ones', () => {
    expect(ssoMemberStep(undefined)).toBe('create');
    expect(ssoMemberStep({ status: 'invited', removed: false })).toBe('activate');
    expect(ssoMemberStep({ status: 'active', removed: false })).toBe('sign-in');
    expect(ssoMemberStep({ status: 'disabled', removed: false })).toBe('refuse-disabled');
    expect(ssoMemberStep({ status: 'active', removed: true })).toBe('refuse-removed');
    expect(ssoMemberStep({ status: 'disabled', removed: true })).toBe('refuse-removed');
  });
});

describe('ssoChanges', () => {
  const settings: SsoSettings = {
    issuer: 'https://id.acme.example',
    clientId: 'lvs',
    domains: ['acme.example'],
    newMemberRole: 'viewer',
    required: false,
  };

  it('names every field of a first set-up, the secret only as set', () => {
    expect(ssoChanges(null, settings, true)).toEqual({
      issuer: { old: null, new: 'https://id.acme.example' },
      clientId: { old: null, new: 'lvs' },
      domains: { old: null, new: ['acme.example'] },
      newMemberRole: { old: null, new: 'viewer' },
      required: { old: null, new: false },
      clientSecret: { old: null, new: 'set' },
    });
  });

  it('names only the fields that changed, and a new secret as changed, never its value', () => {
    const after = { ...settings, domains: ['acme.example', 'acme.co.uk'], required: true };
    expect(ssoChanges(settings, after, true)).toEqual({
      domains: { old: ['acme.example'], new: ['acme.example', 'acme.co.uk'] },
      required: { old: false, new: true },
      clientSecret: { old: 'set', new: 'changed' },
    });
    expect(ssoChanges(settings, { ...settings }, false)).toEqual({});
  });
});
