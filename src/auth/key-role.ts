/**
 * What a key may do, from most to least: admin (every key made before roles), developer (integrations: everything
 * but the activity log), compliance (checks and rosters, no keys or webhooks), viewer (reads only).
 */
export const KEY_ROLES = ['admin', 'developer', 'compliance', 'viewer'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/**
 * What a route needs: `read` its user's data; `check` licences (verify, verify-holder, search), upload rosters and
 * change the watchlist; `integrate` manage keys and webhooks; `audit` read the activity log.
 */
export type Permission = 'read' | 'check' | 'integrate' | 'audit';

/** Each role holds the rights of those below it, so a role and a need compare as ranks. */
const ROLE_RANK: Readonly<Record<KeyRole, number>> = { viewer: 0, compliance: 1, developer: 2, admin: 3 };
const NEEDED_RANK: Readonly<Record<Permission, number>> = { read: 0, check: 1, integrate: 2, audit: 3 };

/** The role table of docs/api.md (Key roles). */
export function roleMay(role: KeyRole, permission: Permission): boolean {
  return ROLE_RANK[role] >= NEEDED_RANK[permission];
}

/** A key may issue keys of its own role or a lesser one, never more rights than it holds. */
export function mayIssueRole(issuer: KeyRole, requested: KeyRole): boolean {
  return ROLE_RANK[issuer] >= ROLE_RANK[requested];
}

/** The roles a key of `issuer` may issue, most rights first: its own and the lesser ones. */
export function issuableRoles(issuer: KeyRole): KeyRole[] {
  return KEY_ROLES.filter((role) => mayIssueRole(issuer, role));
}
