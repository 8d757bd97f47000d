import type { ActivityChanges } from '../activity/activity-chain';
import { MEMBER_ROLES, MemberRole, MemberStatus } from './member-role';

/** The roles single sign-on may give a person signing in for the first time: any but owner. */
export const SSO_NEW_MEMBER_ROLES = MEMBER_ROLES.filter((role) => role !== 'owner');

export function ssoMayGive(role: MemberRole): boolean {
  return (SSO_NEW_MEMBER_ROLES as readonly MemberRole[]).includes(role);
}

/** An account's single sign-on as set, the client secret left out (it is only ever set or replaced). */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  domains: string[];
  newMemberRole: MemberRole;
  required: boolean;
}

/** How a person signs in to the console. */
export type SignInMethod = 'password' | 'passkey' | 'sso';

/**
 * Whether an account's settings refuse this way of signing in: with single sign-on required, a password (and a
 * passkey) is refused for its members; single sign-on is refused where the account has none.
 */
export function signInRefused(method: SignInMethod, sso: Pick<SsoSettings, 'required'> | null): boolean {
  return method === 'sso' ? sso === null : sso?.required === true;
}

/** The member an address already is in the account, as single sign-on finds it: the newest row, removed or not. */
export interface SsoCandidate {
  status: MemberStatus;
  removed: boolean;
}

export type SsoMemberStep = 'create' | 'activate' | 'sign-in' | 'refuse-disabled' | 'refuse-removed';

/**
 * What single sign-on does with a verified address of an allowed domain: a person who is no member yet becomes one
 * (the configured role); an invited one joins with the role they were invited with; an active one signs in; a
 * disabled or removed one is refused (an owner or admin may invite a removed person again, which makes a new row).
 */
export function ssoMemberStep(candidate: SsoCandidate | undefined): SsoMemberStep {
  if (candidate === undefined) return 'create';
  if (candidate.removed) return 'refuse-removed';
  if (candidate.status === 'disabled') return 'refuse-disabled';
  return candidate.status === 'invited' ? 'activate' : 'sign-in';
}

/**
 * The sso.changed event's changes: each field whose value changed, old and new; the client secret only as
 * "set" (it was none) or "changed", never its value. `before` null: single sign-on set up for the first time.
 */
export function ssoChanges(before: SsoSettings | null, after: SsoSettings, secretReplaced: boolean): ActivityChanges {
  const changes: ActivityChanges = {};
  for (const field of ['issuer', 'clientId', 'domains', 'newMemberRole', 'required'] as const) {
    const old = before === null ? null : before[field];
    if (JSON.stringify(old) !== JSON.stringify(after[field])) changes[field] = { old, new: after[field] };
  }
  if (secretReplaced) changes.clientSecret = { old: before === null ? null : 'set', new: before === null ? 'set' : 'changed' };
  return changes;
}
