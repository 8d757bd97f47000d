import type { AuthenticatedUser } from '../auth/authenticated-user';
import type { MemberAccount } from '../auth/auth.repository';
import type { KeyMode } from '../auth/key-mode';
import { keyRoleOf } from './member-role';
import type { MemberRow } from './members.repository';

/** What the test side follows, for members as for test keys: TEST_MODE_ENABLED and TEST_MODE_QUOTA. */
export interface TestModeSettings {
  enabled: boolean;
  quota: number;
}

/**
 * The caller a member's console session acts as on `side` of the account: its live user, or its test side as the
 * account's test keys find it (TEST_MODE_QUOTA; the live user's rate, in the test side's own bucket, and bound on
 * live lookups). On both the member is the actor, with the same role. Null when the session cannot stand on the
 * test side: test mode is off (the account's test keys answer 401 then), or the account has no test side.
 */
export function memberCaller(
  member: Pick<MemberRow, 'id' | 'userId' | 'role'>,
  account: Pick<MemberAccount, 'testUserId' | 'monthlyQuota' | 'liveLookupLimit'>,
  side: KeyMode,
  testMode: TestModeSettings,
): AuthenticatedUser | null {
  const actor = { keyId: null, memberId: member.id, role: keyRoleOf(member.role), liveLookupLimit: account.liveLookupLimit };
  if (side === 'live') return { ...actor, userId: member.userId, mode: 'live', monthlyQuota: account.monthlyQuota };
  if (!testMode.enabled || account.testUserId === null) return null;
  return { ...actor, userId: account.testUserId, mode: 'test', monthlyQuota: testMode.quota };
}
