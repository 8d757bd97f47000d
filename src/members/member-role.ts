import type { KeyRole } from '../auth/key-role';

/** A member's role, most rights first (docs/console.md, Roles). */
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'compliance', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export type MemberStatus = 'invited' | 'active' | 'disabled';

/**
 * The key role whose rights a member has on every route a key may call: an owner as an admin. Members and the
 * activity log are for owners and admins besides (mayManageMembers); keys never manage members.
 */
export function keyRoleOf(role: MemberRole): KeyRole {
  return role === 'owner' ? 'admin' : role;
}

/** Who may open the Members page and invite: owners and admins. */
export function mayManageMembers(role: MemberRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** A change one member asks of another (or of a new one, for an invitation). */
export type MemberChange =
  | { kind: 'invite'; role: MemberRole }
  | { kind: 'change-role'; from: MemberRole; to: MemberRole }
  | { kind: 'disable'; role: MemberRole }
  | { kind: 'remove'; role: MemberRole };

export type MemberChangeRefusal = 'NOT_ALLOWED' | 'OWNERS_ONLY' | 'LAST_OWNER';

/** The words a person reads for each refusal. */
export const MEMBER_CHANGE_MESSAGES: Readonly<Record<MemberChangeRefusal, string>> = {
  NOT_ALLOWED: 'Only owners and admins manage members.',
  OWNERS_ONLY: 'Only an owner can invite, change, disable or remove an owner, or make someone an owner.',
  LAST_OWNER: 'The account needs an owner: make another member owner first.',
};

/**
 * Why `actor` may not make `change`, or null when it may. `activeOwners` counts the account's active owners before
 * the change (the caller holds them locked). An admin touches no owner and makes none; the last active owner is
 * neither demoted, disabled nor removed.
 */
export function memberChangeRefusal(actor: MemberRole, change: MemberChange, activeOwners: number): MemberChangeRefusal | null {
  if (!mayManageMembers(actor)) return 'NOT_ALLOWED';
  const touchesOwner = change.kind === 'change-role' ? change.from === 'owner' || change.to === 'owner' : change.role === 'owner';
  if (touchesOwner && actor !== 'owner') return 'OWNERS_ONLY';
  const losesOwner =
    change.kind === 'change-role' ? change.from === 'owner' && change.to !== 'owner' : change.kind !== 'invite' && change.role === 'owner';
  return losesOwner && activeOwners <= 1 ? 'LAST_OWNER' : null;
}
