import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { MembersService } from '../../src/members/members.service';
import { checkPageAt as checkScreens, launchChromium, openProfileWithAuthenticator } from '../support/browser';
import { FormClient } from '../support/console-client';
import { codeAt, joinAsMember, joinByForm, MEMBER_PASSWORD } from '../support/member-join';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
const WRONG_PASSKEY = 'That passkey did not sign you in. Use a passkey you added on Your account, or your password.';

/**
 * Members' passkeys (issue 41) in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain):
 * one added on Your account signs the member in alone, once per challenge; removed, or its member removed, it signs
 * no one in. WebAuthn refuses an IP address as the relying party's id, so the browser opens the console at
 * localhost, which the console then takes as its origin (PUBLIC_BASE_URL is unset).
 */
describe('passkeys in the console', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    // The test stands in for a proxy on loopback (TRUST_PROXY), so that its replays come from an address of their own.
    t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    base = t.baseUrl.replace('127.0.0.1', 'localhost');
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  const now = () => t.clock.now().getTime();
  const checkPage = (page: Page, name: string) => checkScreens(page, SCREENSHOTS, name);

  const pageWithAuthenticator = () => openProfileWithAuthenticator(browser);

  async function invite(userId: string, email: string, role: 'owner' | 'viewer'): Promise<string> {
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, userId, email, role);
    if ('error' in invited) throw new Error(invited.error);
    return invited.link;
  }

  async function addPasskey(page: Page, name: string): Promise<void> {
    await page.goto(`${base}/console/account`);
    await page.getByLabel('Name of the new passkey').fill(name);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toBe('Your passkey is added: it signs you in without your password or code.');
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/console/sign-in`);
  }

  const memberId = async (email: string) => (await t.db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [email])).rows[0].id;

  it('signs a member in with a passkey alone once they added it after a password and code; the answer works once, and the passkey removed signs no one in', async () => {
    const account = await t.createKey({ name: 'Passkeys' });
    const link = await invite(account.userId, 'pat@passkeys.example', 'owner');
    const { page, credentials } = await pageWithAuthenticator();
    const joined = await joinAsMember(page, base, link, { name: 'Pat Passkey', password: MEMBER_PASSWORD, nowMs: now });
    const patId = await memberId('pat@passkeys.example');

    // Signed in again with the password and a code (the next step's: the one used to join is spent).
    await signOut(page);
    // Without SMTP_URL the sign-in page offers no password reset, and its page leads back to sign-in.
    await expect(page.getByRole('link', { name: 'Forgot your password?' }).count()).resolves.toBe(0);
    t.clock.travelTo(new Date(joined.usedAt + 30_000));
    try {
      await page.getByLabel('E-mail address').fill('pat@passkeys.example');
      await page.getByLabel('Password').fill(MEMBER_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel(/Code from your authenticator app/).fill(codeAt(joined.secret, now()));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/console/overview`);
    } finally {
      t.clock.set(null);
    }

    // The passkey: made by the authenticator, listed by its name, stored with its public part only.
    await page.goto(`${base}/console/account`);
    // The address and the recovery codes left, as the page's own model gives them (never the navigation's member).
    await expect(page.locator('main > p').first().innerText()).resolves.toBe('Pat Passkey · pat@passkeys.example · role owner');
    await expect(page.getByText('10 of 10 recovery codes left.').count()).resolves.toBe(1);
    await expect(page.getByText('You have no passkeys.').count()).resolves.toBe(1);
    await addPasskey(page, '  Work   laptop ');
    const [made] = await credentials();
    const stored = await t.db.query(
      `SELECT member_id, credential_id, counter::int, transports, name, last_used_at, length(public_key) > 0 AS has_key FROM member_passkeys`,
    );
    expect(stored.rows).toEqual([
      {
        member_id: patId,
        credential_id: Buffer.from(made.credentialId, 'base64').toString('base64url'),
        counter: expect.any(Number),
        transports: ['internal'],
        name: 'Work laptop',
        last_used_at: null,
        has_key: true,
      },
    ]);
    await expect(page.locator('td[data-label="Name"]').allInnerTexts()).resolves.toEqual(['Work laptop']);
    await expect(page.locator('td[data-label="Last used (UTC)"]').innerText()).resolves.toBe('Never');
    await checkPage(page, 'account-passkeys');

    // Signed out, the passkey alone signs in: a new session, no password, no code.
    const cookieOf = async () => (await page.context().cookies()).find((cookie) => cookie.name === '__Host-lvs_console')?.value;
    const before = await cookieOf();
    await signOut(page);
    await checkPage(page, 'sign-in-passkey');
    // What the form sends, cookies included (allHeaders: headers() leaves them out), to send it again below.
    let sent: Promise<{ body: string; cookie: string }> | null = null;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/console/sign-in/passkey')
        sent = request.allHeaders().then((headers) => ({ body: request.postData() ?? '', cookie: headers.cookie ?? '' }));
    });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(`${base}/console/overview`);
    const after = await cookieOf();
    expect(after).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    await page.goto(`${base}/console/account`);
    await expect(page.locator('td[data-label="Last used (UTC)"]').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

    // The same answer sent again finds its challenge spent: refused, and counted as a failed sign-in, up to the limit.
    if (sent === null) throw new Error('The passkey form was not seen');
    const replay = await (sent as Promise<{ body: string; cookie: string }>);
    expect(replay.cookie).toMatch(/__Host-lvs_console_sign_in=/);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await fetch(`${base}/console/sign-in/passkey`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: replay.cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.41' },
        body: replay.body,
      });
      statuses.push(answer.status);
      if (attempt === 0) expect(/role="alert">([^<]*)</.exec(await answer.text())?.[1]).toBe(WRONG_PASSKEY);
    }
    // SIGN_IN_FAILURES_PER_EMAIL (5): the member's address is the passkey's.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    // Removed, it signs no one in, though the authenticator still offers it.
    await page.goto(`${base}/console/account`);
    await page.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await page.getByText('You have no passkeys.').waitFor();
    await expect(credentials()).resolves.toHaveLength(1);
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(WRONG_PASSKEY);
    expect(page.url()).toBe(`${base}/console/sign-in/passkey`);
    await expect(page.goto(`${base}/console/overview`).then(() => page.url())).resolves.toBe(`${base}/console/sign-in`);

    const events = await t.db.query<{ action: string; actor_type: string; actor_id: string | null; changes: unknown }>(
      `SELECT action, actor_type, actor_id, changes FROM activity_events WHERE user_id = $1 AND action LIKE 'member.%' ORDER BY seq`,
      [account.userId],
    );
    const failed = { action: 'member.sign_in_failed', actor_type: 'member', actor_id: patId, changes: { stage: { old: null, new: 'passkey' } } };
    expect(events.rows).toEqual([
      {
        action: 'member.invited',
        actor_type: 'cli',
        actor_id: null,
        changes: { email: { old: null, new: 'pat@passkeys.example' }, role: { old: null, new: 'owner' } },
      },
      { action: 'member.joined', actor_type: 'member', actor_id: patId, changes: {} },
      { action: 'member.factor_added', actor_type: 'member', actor_id: patId, changes: { factor: { old: null, new: 'totp' } } },
      { action: 'member.signed_in', actor_type: 'member', actor_id: patId, changes: {} },
      { action: 'member.signed_in', actor_type: 'member', actor_id: patId, changes: {} },
      { action: 'member.factor_added', actor_type: 'member', actor_id: patId, changes: { factor: { old: null, new: 'passkey' } } },
      { action: 'member.signed_in', actor_type: 'member', actor_id: patId, changes: {} },
      failed,
      failed,
      failed,
      failed,
      failed,
      { action: 'member.factor_removed', actor_type: 'member', actor_id: patId, changes: { factor: { old: 'passkey', new: null } } },
    ]);
    // Nothing of the key in the log: the public key and credential id are not in any event.
    const logged = JSON.stringify((await t.db.query('SELECT * FROM activity_events WHERE user_id = $1', [account.userId])).rows);
    expect(logged.includes(Buffer.from(made.credentialId, 'base64').toString('base64url'))).toBe(false);
  });

  it("signs no one in with a removed member's passkey", async () => {
    const account = await t.createKey({ name: 'Removed passkeys' });
    const owner = new FormClient(t.baseUrl);
    await joinByForm(owner, await invite(account.userId, 'olga@removed.example', 'owner'), now);
    const { page } = await pageWithAuthenticator();
    await joinAsMember(page, base, await invite(account.userId, 'vic@removed.example', 'viewer'), {
      name: 'Vic Viewer',
      password: MEMBER_PASSWORD,
      nowMs: now,
    });
    const added = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/console/account/passkeys');
    await addPasskey(page, 'Phone');
    // The new passkey's answer sent again finds the session's challenge spent: nothing is added.
    const form = await added;
    const again = await fetch(`${base}/console/account/passkeys`, {
      method: 'POST',
      headers: { ...(await form.allHeaders()), origin: base },
      body: form.postData() ?? '',
    });
    expect([again.status, /role="alert">([^<]*)</.exec(await again.text())?.[1]]).toEqual([
      400,
      'The passkey was not added: your browser did not finish. Try again.',
    ]);
    const vicId = await memberId('vic@removed.example');
    const rows = await t.db.query(`SELECT name FROM member_passkeys WHERE member_id = $1`, [vicId]);
    expect(rows.rows).toEqual([{ name: 'Phone' }]);
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(`${base}/console/overview`);
    await signOut(page);

    const _csrf = await owner.tokenOf('/console/members');
    const removed = await owner.send('POST', `/console/members/${vicId}/remove`, { _csrf });
    expect(removed.status).toBe(303);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(WRONG_PASSKEY);
    const signIns = await t.db.query(`SELECT count(*)::int AS n FROM activity_events WHERE user_id = $1 AND action = 'member.signed_in'`, [
      account.userId,
    ]);
    // Each member's join, and the viewer's one passkey sign-in before removal.
    expect(signIns.rows[0]).toEqual({ n: 3 });
  });
});
