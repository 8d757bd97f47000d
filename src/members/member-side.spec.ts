import { memberCaller } from './member-side';

const member = { id: 'member-1', userId: 'live-user', role: 'owner' as const };
const account = { testUserId: 'test-side', monthlyQuota: 500, liveLookupLimit: 7 };
const on = { enabled: true, quota: 1000 };

describe('memberCaller', () => {
  it('acts on the live user with its plan, the member the actor and an owner an admin', () => {
    expect(memberCaller(member, account, 'live', on)).toEqual({
      userId: 'live-user',
      keyId: null,
      memberId: 'member-1',
      mode: 'live',
      role: 'admin',
      monthlyQuota: 500,
      liveLookupLimit: 7,
    });
  });

  it('acts on the test side as its test keys do: TEST_MODE_QUOTA, the live bound on lookups, the same member and role', () => {
    expect(memberCaller({ ...member, role: 'viewer' }, account, 'test', on)).toEqual({
      userId: 'test-side',
      keyId: null,
      memberId: 'member-1',
      mode: 'test',
      role: 'viewer',
      monthlyQuota: 1000,
      liveLookupLimit: 7,
    });
  });

  it('stands on no test side while test mode is off, nor on one the account does not have', () => {
    expect([
      memberCaller(member, account, 'test', { enabled: false, quota: 1000 }),
      memberCaller(member, { ...account, testUserId: null }, 'test', on),
    ]).toEqual([null, null]);
  });

  it('stays on the live side whatever the test mode settings and the test side', () => {
    expect(memberCaller(member, { ...account, testUserId: null }, 'live', { enabled: false, quota: 1 })?.userId).toBe('live-user');
  });
});
