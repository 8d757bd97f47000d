import { issuableRoles, KEY_ROLES, KeyRole, mayIssueRole, Permission, roleMay } from './key-role';

describe('roleMay', () => {
  // docs/api.md's table, row by row.
  const table: Record<Permission, KeyRole[]> = {
    read: ['admin', 'developer', 'compliance', 'viewer'],
    check: ['admin', 'developer', 'compliance'],
    integrate: ['admin', 'developer'],
    audit: ['admin'],
  };

  for (const [permission, allowed] of Object.entries(table) as Array<[Permission, KeyRole[]]>) {
    it(`lets ${allowed.join(', ')} ${permission}, and no other role`, () => {
      expect(KEY_ROLES.filter((role) => roleMay(role, permission))).toEqual(allowed);
    });
  }
});

describe('mayIssueRole', () => {
  it('lets a key issue its own role and lesser ones only', () => {
    const issuable = Object.fromEntries(KEY_ROLES.map((issuer) => [issuer, KEY_ROLES.filter((role) => mayIssueRole(issuer, role))]));
    expect(Object.fromEntries(KEY_ROLES.map((issuer) => [issuer, issuableRoles(issuer)]))).toEqual(issuable);
    expect(issuable).toEqual({
      admin: ['admin', 'developer', 'compliance', 'viewer'],
      developer: ['developer', 'compliance', 'viewer'],
      compliance: ['compliance', 'viewer'],
      viewer: ['viewer'],
    });
  });
});
