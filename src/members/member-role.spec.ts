import { keyRoleOf, mayManageMembers, memberChangeRefusal } from './member-role';

describe('member roles', () => {
  it('give an owner the rights of an admin key, and every other role its own', () => {
    expect(keyRoleOf('owner')).toBe('admin');
    expect(keyRoleOf('admin')).toBe('admin');
    expect(keyRoleOf('developer')).toBe('developer');
    expect(keyRoleOf('compliance')).toBe('compliance');
    expect(keyRoleOf('viewer')).toBe('viewer');
  });

  it('let owners and admins manage members, and nobody else', () => {
    expect(['owner', 'admin', 'developer', 'compliance', 'viewer'].map((role) => mayManageMembers(role as never))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('memberChangeRefusal', () => {
  it('refuses every change to a developer, compliance or viewer member', () => {
    for (const actor of ['developer', 'compliance', 'viewer'] as const) {
      expect(memberChangeRefusal(actor, { kind: 'invite', role: 'viewer' }, 1)).toBe('NOT_ALLOWED');
      expect(memberChangeRefusal(actor, { kind: 'remove', role: 'viewer' }, 1)).toBe('NOT_ALLOWED');
    }
  });

  it('lets an admin manage everyone but owners', () => {
    expect(memberChangeRefusal('admin', { kind: 'invite', role: 'admin' }, 1)).toBeNull();
    expect(memberChangeRefusal('admin', { kind: 'change-role', from: 'developer', to: 'admin' }, 1)).toBeNull();
    expect(memberChangeRefusal('admin', { kind: 'disable', role: 'compliance' }, 1)).toBeNull();
    expect(memberChangeRefusal('admin', { kind: 'remove', role: 'admin' }, 1)).toBeNull();
  });

  it('refuses an admin anything that touches an owner or makes one', () => {
    expect(memberChangeRefusal('admin', { kind: 'invite', role: 'owner' }, 2)).toBe('OWNERS_ONLY');
    expect(memberChangeRefusal('admin', { kind: 'change-role', from: 'owner', to: 'admin' }, 2)).toBe('OWNERS_ONLY');
    expect(memberChangeRefusal('admin', { kind: 'change-role', from: 'admin', to: 'owner' }, 2)).toBe('OWNERS_ONLY');
    expect(memberChangeRefusal('admin', { kind: 'disable', role: 'owner' }, 2)).toBe('OWNERS_ONLY');
    expect(memberChangeRefusal('admin', { kind: 'remove', role: 'owner' }, 2)).toBe('OWNERS_ONLY');
  });

  it('keeps the last active owner: not demoted, disabled or removed', () => {
    expect(memberChangeRefusal('owner', { kind: 'change-role', from: 'owner', to: 'admin' }, 1)).toBe('LAST_OWNER');
    expect(memberChangeRefusal('owner', { kind: 'disable', role: 'owner' }, 1)).toBe('LAST_OWNER');
    expect(memberChangeRefusal('owner', { kind: 'remove', role: 'owner' }, 1)).toBe('LAST_OWNER');
  });

  it('lets an owner demote or remove an owner while another remains, and invite or promote owners', () => {
    expect(memberChangeRefusal('owner', { kind: 'change-role', from: 'owner', to: 'viewer' }, 2)).toBeNull();
    expect(memberChangeRefusal('owner', { kind: 'remove', role: 'owner' }, 2)).toBeNull();
    expect(memberChangeRefusal('owner', { kind: 'invite', role: 'owner' }, 1)).toBeNull();
    expect(memberChangeRefusal('owner', { kind: 'change-role', from: 'viewer', to: 'owner' }, 1)).toBeNull();
    expect(memberChangeRefusal('owner', { kind: 'change-role', from: 'owner', to: 'owner' }, 1)).toBeNull();
  });
});
