import { pageModel } from './console-answers';
import type { ConsoleVisit } from './console-sessions';

describe('pageModel', () => {
  const visit = {
    csrfToken: 'token-1',
    sessionId: 's',
    rateLimitPerSecond: null,
    user: { mode: 'live', role: 'developer' },
    member: null,
    offeredSide: null,
  } as unknown as ConsoleVisit;

  it("gives a signed-in page the route's data, its name and the session's token", () => {
    expect(pageModel('keys', visit, { keys: [], error: null })).toEqual({
      keys: [],
      error: null,
      page: 'keys',
      csrfToken: 'token-1',
      signedIn: true,
      mode: 'live',
      offeredSide: null,
      member: null,
      auditor: false,
    });
  });

  it("names a member's session's member, for the navigation", () => {
    const memberVisit = {
      ...visit,
      user: { mode: 'live', role: 'admin' },
      member: { displayName: 'Jane Smith', role: 'owner', passwordHash: 'secret' },
      offeredSide: 'test',
    } as unknown as ConsoleVisit;
    expect(pageModel('overview', memberVisit, {})).toEqual({
      page: 'overview',
      csrfToken: 'token-1',
      signedIn: true,
      mode: 'live',
      offeredSide: 'test',
      member: { displayName: 'Jane Smith', role: 'owner' },
      auditor: true,
    });
  });

  it("tells a member's pages on the test side their side and the switch back, for the banner and the Test mode switch", () => {
    const memberVisit = {
      ...visit,
      user: { mode: 'test', role: 'viewer' },
      member: { displayName: null, role: 'viewer' },
      offeredSide: 'live',
    } as unknown as ConsoleVisit;
    expect(pageModel('overview', memberVisit, {})).toEqual({
      page: 'overview',
      csrfToken: 'token-1',
      signedIn: true,
      mode: 'test',
      offeredSide: 'live',
      member: { displayName: null, role: 'viewer' },
      auditor: false,
    });
  });

  it("tells a test key's pages their mode, for the Test mode banner", () => {
    const testVisit = { ...visit, user: { mode: 'test', role: 'viewer' } } as unknown as ConsoleVisit;
    expect(pageModel('overview', testVisit, {})).toEqual({
      page: 'overview',
      csrfToken: 'token-1',
      signedIn: true,
      mode: 'test',
      offeredSide: null,
      member: null,
      auditor: false,
    });
  });

  it('puts the activity log in the navigation of a session whose role may read it: an admin key, an owner or admin member', () => {
    for (const [role, auditor] of [
      ['admin', true],
      ['developer', false],
      ['compliance', false],
      ['viewer', false],
    ] as const) {
      expect([
        role,
        (pageModel('overview', { ...visit, user: { mode: 'live', role } } as unknown as ConsoleVisit, {}) as { auditor: boolean }).auditor,
      ]).toEqual([role, auditor]);
    }
  });

  it('gives a page before a session no token, and says it is not signed in', () => {
    expect(pageModel('sign-in', null, { error: 'no' })).toEqual({
      error: 'no',
      page: 'sign-in',
      csrfToken: null,
      signedIn: false,
      mode: null,
      offeredSide: null,
      member: null,
      auditor: false,
    });
  });

  it("lets no route's data stand in for the page's own fields", () => {
    const forged = { page: 'other', signedIn: true, csrfToken: 'forged', mode: 'live', offeredSide: 'test', member: { role: 'owner' }, auditor: true };
    expect(pageModel('verify', null, forged)).toEqual({
      page: 'verify',
      csrfToken: null,
      signedIn: false,
      mode: null,
      offeredSide: null,
      member: null,
      auditor: false,
    });
  });
});
