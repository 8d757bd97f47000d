import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { SESSION_COOKIE } from '../../src/console/console-cookies';
import { MembersService } from '../../src/members/members.service';
import { MemberRole } from '../../src/members/member-role';
import { billingPeriod } from '../../src/quota/billing-period';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { FormClient } from '../support/console-client';
import { joinAsMember, MEMBER_PASSWORD } from '../support/member-join';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
/** A number of the built-in test register: FOUND, Active, holder TEST ACTIVE. */
const TEST_NUMBER = '4000000000000001';
const LIVE_QUOTA = 50;
const TEST_QUOTA = 25;
const MEMBER_BANNER =
  "Test mode: you are working on your organisation's test side. Answers come from the sandbox register, and nothing here touches your live data or quota.";
const TO_TEST = 'Switch to test mode';
const TO_LIVE = 'Switch to live mode';
const KEY_SESSION_REFUSED = { code: 'FORBIDDEN', message: "A session signed in with a key works on its key's side; sign in with a key of the other side" };

/**
 * Members on the account's test side through the console's Test mode switch (issue 41): the same test side as the
 * account's test keys (its quota, its register, its records), the member still the actor and their role the same;
 * a session signed in with a key keeps its key's side. A worker answers lookups.
 */
describe("members on the account's test side: the console's Test mode switch", () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { TEST_MODE_QUOTA: String(TEST_QUOTA) } });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  async function member(userId: string, email: string, role: MemberRole): Promise<{ page: Page; id: string }> {
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, userId, email, role);
    if ('error' in invited) throw new Error(invited.error);
    const { page } = await openProfile(browser);
    await joinAsMember(page, t.baseUrl, invited.link, { name: email.split('@')[0], password: MEMBER_PASSWORD, nowMs: () => t.clock.now().getTime() });
    const [{ id }] = (await t.db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [email])).rows;
    return { page, id };
  }

  /** The Test mode banner's text on the page, or null where there is none. */
  async function banner(page: Page): Promise<string | null> {
    const found = page.getByRole('status').filter({ hasText: 'Test mode' });
    return (await found.count()) === 1 ? (await found.innerText()).trim() : null;
  }

  async function switchTo(page: Page, button: string): Promise<void> {
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL(`${t.baseUrl}/console/overview`);
  }

  async function figures(page: Page): Promise<Record<string, string>> {
    await page.goto(`${t.baseUrl}/console/overview`);
    const read = (name: string) => page.locator(`[data-figure="${name}"]`).innerText();
    return { used: await read('used'), quota: await read('quota'), remaining: await read('remaining') };
  }

  const quotaRows = (userIds: string[]) =>
    t.db.query<{ user_id: string; period: string; used: number }>(
      'SELECT user_id, period, used FROM quota_usage WHERE user_id = ANY ($1) ORDER BY user_id',
      [userIds],
    );
  const records = (userIds: string[]) =>
    t.db.query<{ user_id: string; licence_number: string; status: string; channel: string; member_id: string }>(
      `SELECT user_id, licence_number, status, channel, record->>'memberId' AS member_id FROM verification_records WHERE user_id = ANY ($1)`,
      [userIds],
    );

  it('takes an owner to the test side, where a verification answers from the test register, charges the test quota and names the owner, and back', async () => {
    const account = await t.createKey({ name: 'Integration', quota: LIVE_QUOTA });
    const owner = await member(account.userId, 'olivia@switch.example', 'owner');
    const { page } = owner;
    expect([await banner(page), await page.getByRole('button', { name: TO_LIVE }).count()]).toEqual([null, 0]);
    // The account had no test side: the switch makes it.
    expect((await t.db.query('SELECT id FROM users WHERE live_user_id = $1', [account.userId])).rows).toEqual([]);

    await switchTo(page, TO_TEST);
    const [{ id: testSide }] = (await t.db.query<{ id: string }>('SELECT id FROM users WHERE live_user_id = $1', [account.userId])).rows;
    expect(await banner(page)).toBe(MEMBER_BANNER);
    expect(await figures(page)).toEqual({ used: '0', quota: String(TEST_QUOTA), remaining: String(TEST_QUOTA) });
    // Readable by everyone, at both widths: no serious or critical axe violation with the banner and the switch.
    await checkPageAt(page, SCREENSHOTS, 'member-test-mode');

    await page.getByRole('link', { name: 'Verify', exact: true }).click();
    expect(await banner(page)).toBe(MEMBER_BANNER);
    await page.getByLabel('Licence number').fill(TEST_NUMBER);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByRole('heading', { name: `Result for ${TEST_NUMBER}` }).waitFor();
    await expect(page.getByRole('article', { name: 'Licence of TEST ACTIVE' }).count()).resolves.toBe(1);
    await checkPageAt(page, SCREENSHOTS, 'member-test-mode-verify');

    // Charged to the test side's quota alone; the record is the test side's, made by the owner from the console.
    const period = billingPeriod(t.clock.now(), 'UTC');
    expect(await figures(page)).toEqual({ used: '1', quota: String(TEST_QUOTA), remaining: String(TEST_QUOTA - 1) });
    expect((await quotaRows([account.userId, testSide])).rows).toEqual([{ user_id: testSide, period, used: 1 }]);
    expect((await records([account.userId, testSide])).rows).toEqual([
      { user_id: testSide, licence_number: TEST_NUMBER, status: 'FOUND', channel: 'console', member_id: owner.id },
    ]);
    // The test side's History names the owner, by the name they joined with.
    await page.goto(`${t.baseUrl}/console/history`);
    expect(await page.locator('main table tbody tr td[data-label="By"]').allInnerTexts()).toEqual(['olivia']);

    // Back on the live side: no banner, nothing of the test side's work, the live quota untouched.
    await switchTo(page, TO_LIVE);
    expect([await banner(page), await page.getByRole('button', { name: TO_TEST }).count()]).toEqual([null, 1]);
    expect(await figures(page)).toEqual({ used: '0', quota: String(LIVE_QUOTA), remaining: String(LIVE_QUOTA) });
    await page.goto(`${t.baseUrl}/console/history`);
    await expect(page.getByText('No verification recorded yet.').count()).resolves.toBe(1);
    expect((await quotaRows([account.userId, testSide])).rows).toEqual([{ user_id: testSide, period, used: 1 }]);
  });

  it('lets a viewer switch to the test side, under a new session id, where their role still forbids verifying', async () => {
    const account = await t.createKey({ name: 'Integration', quota: LIVE_QUOTA });
    const { page } = await member(account.userId, 'victor@switch.example', 'viewer');
    const sessionCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!.value;
    const before = await sessionCookie();
    await switchTo(page, TO_TEST);
    expect(await banner(page)).toBe(MEMBER_BANNER);
    // The session went on under a new id: the old one is over, so nothing still holding it can move the side back.
    const after = await sessionCookie();
    const old = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie: `${SESSION_COOKIE}=${before}` } });
    expect([after === before, old.status, old.headers.get('location')]).toEqual([false, 303, '/console/sign-in']);
    const answer = await page.goto(`${t.baseUrl}/console/verify`);
    expect([answer?.status(), await page.getByRole('alert').innerText(), await banner(page)]).toEqual([
      403,
      'Your role, viewer, does not allow this. Nothing was done.',
      MEMBER_BANNER,
    ]);
    const [{ id: testSide }] = (await t.db.query<{ id: string }>('SELECT id FROM users WHERE live_user_id = $1', [account.userId])).rows;
    expect([(await quotaRows([account.userId, testSide])).rows, (await records([account.userId, testSide])).rows]).toEqual([[], []]);
  });

  it("keeps a key's session on its key's side: no switch on its pages, and the switch's form refused", async () => {
    const live = await t.createKey({ name: 'Live desk' });
    const test = await t.createKey({ userId: live.userId, test: true, name: 'Test desk' });
    for (const key of [live.key, test.key]) {
      const client = new FormClient(t.baseUrl);
      expect((await client.signIn(key)).status).toBe(303);
      const overview = await (await client.send('GET', '/console/overview')).text();
      expect([overview.includes('/console/test-mode'), overview.includes('Switch to')]).toEqual([false, false]);
      const _csrf = await client.tokenOf('/console/overview');
      for (const mode of ['test', 'live']) {
        const refused = await client.send('POST', '/console/test-mode', { _csrf, mode });
        expect([mode, refused.status, await refused.json()]).toEqual([mode, 403, KEY_SESSION_REFUSED]);
      }
    }
    // The test key's session is still the test side, with the test key's banner.
    const client = new FormClient(t.baseUrl);
    await client.signIn(test.key);
    expect(await (await client.send('GET', '/console/overview')).text()).toContain('<strong>Test mode</strong>: signed in with a test key.');
  });
});
