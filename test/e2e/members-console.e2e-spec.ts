import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { MembersService } from '../../src/members/members.service';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { FormClient } from '../support/console-client';
import { MailReceiver } from '../support/mail-receiver';
import { codeAt, joinAsMember, joinByForm, MEMBER_PASSWORD as PASSWORD } from '../support/member-join';
import { runAdminCli } from '../support/admin-cli';
import { request as apiRequest } from '../support/http';
import { verifyWithJose } from '../support/jose-verify';
import { until } from '../support/until';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const FOUND = '1011001544208079';
const UNKNOWN = '1888000000000001';

const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
const WRONG_CODE = 'That code is not right, or was used already.';
const NOT_ALLOWED = 'Your role, compliance, does not allow this. Nothing was done.';

/**
 * Members of a partner's account in the console (issue 41): an owner invited by the operator's command, their
 * password and TOTP, an invited compliance member who checks a licence, role refusals, removal, sessions and
 * sign-in limits. The API runs in this process with a clock the test moves; a worker answers lookups.
 */
describe('members in the console', () => {
  let t: TestApp;
  let browser: Browser;
  let mail: MailReceiver;

  beforeAll(async () => {
    // The test stands in for a proxy on loopback (TRUST_PROXY), so that the limiter's test signs in from an address of its own.
    // Invitations are also e-mailed, through a real SMTP server on loopback.
    mail = await MailReceiver.start();
    t = await startTestApp({
      withWorker: true,
      env: {
        VERIFY_TIMEOUT_MS: '1500',
        REGISTER_REQUEST_TIMEOUT_MS: '6000',
        TRUST_PROXY: 'loopback',
        SMTP_URL: mail.url,
        SMTP_FROM: 'Console <console@lvs.example>',
      },
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await mail?.close();
  });

  const now = () => t.clock.now().getTime();

  const openPage = () => openProfile(browser);
  const checkPage = (page: Page, name: string) => checkPageAt(page, SCREENSHOTS, name);

  /** Joins through an invitation link in the browser: name and password, then the code of the key shown; the recovery codes. */
  const joinInBrowser = (page: Page, link: string, name: string, screenshots: boolean) =>
    joinAsMember(page, t.baseUrl, link, { name, password: PASSWORD, nowMs: now }, screenshots ? (page_) => checkPage(page, page_) : undefined);

  async function signInByForm(client: FormClient, email: string, code: () => string, headers: Record<string, string> = {}): Promise<void> {
    const _csrf = await client.tokenOf('/console/sign-in');
    const password = await client.send('POST', '/console/sign-in', { _csrf, email, password: PASSWORD }, headers);
    expect([password.status, password.headers.get('location')]).toEqual([303, '/console/sign-in/code']);
    const second = await client.send('POST', '/console/sign-in/code', { _csrf, code: code() }, headers);
    expect([second.status, second.headers.get('location')]).toEqual([303, '/console/overview']);
  }

  it('takes an owner from the command-line invitation to a signed-in console, who invites a compliance member; removed, that member is signed out at once', async () => {
    const account = await t.createKey({ name: 'Integration', quota: 50 });
    const cli = await runAdminCli(t.env, 'invite', '--user', account.userId, '--email', 'Olivia.Owner@Acme.example', '--role', 'owner');
    expect([cli.status, cli.stderr]).toEqual([0, '']);
    expect(cli.stdout).toMatch(/^http:\/\/localhost:3000\/console\/join\/[A-Za-z0-9_-]{43}\n$/);

    const { page: ownerPage } = await openPage();
    await joinInBrowser(ownerPage, cli.stdout.trim(), 'Olivia Owner', true);
    await ownerPage.getByRole('link', { name: 'Members' }).click();
    await ownerPage.getByLabel('E-mail address').fill('casey.compliance@acme.example');
    await ownerPage.getByLabel('Role', { exact: true }).selectOption('compliance');
    await ownerPage.getByRole('button', { name: 'Invite' }).click();
    const link = (await ownerPage.locator('#invitation-link').innerText()).trim();
    expect(link).toMatch(/\/console\/join\/[A-Za-z0-9_-]{43}$/);
    await expect(ownerPage.getByText('(it was e-mailed too)').count()).resolves.toBe(1);
    // The operator's invitation and this one were e-mailed, each with its link alone on a line.
    expect(mail.messages.map((message) => message.to)).toEqual([['olivia.owner@acme.example'], ['casey.compliance@acme.example']]);
    expect(mail.messages[1].raw).toMatch(/^From: Console <console@lvs\.example>\r$/m);
    // Quoted-printable, as nodemailer writes mostly-ASCII text: its soft line breaks joined again.
    expect(mail.messages[1].raw.replace(/=\r\n/g, '').split('\r\n')).toContain(link);
    await checkPage(ownerPage, 'members');
    // Shown once: the page read again holds no link.
    await ownerPage.goto(`${t.baseUrl}/console/members`);
    await expect(ownerPage.locator('#invitation-link').count()).resolves.toBe(0);

    const { context: complianceContext, page: compliancePage } = await openPage();
    const compliance = await joinInBrowser(compliancePage, link, 'Casey Compliance', false);
    expect(compliance.recoveryCodes).toHaveLength(10);

    // Signed in again: the code just used to join is refused, a wrong recovery code too, a right one works once.
    await compliancePage.getByRole('button', { name: 'Sign out' }).click();
    await compliancePage.getByLabel('E-mail address').fill('Casey.Compliance@acme.example');
    await compliancePage.getByLabel('Password').fill(PASSWORD);
    await compliancePage.getByRole('button', { name: 'Continue' }).click();
    await compliancePage.waitForURL(`${t.baseUrl}/console/sign-in/code`);
    await checkPage(compliancePage, 'sign-in-code');
    await compliancePage.getByLabel(/Code from your authenticator app/).fill(codeAt(compliance.secret, compliance.usedAt));
    await compliancePage.getByRole('button', { name: 'Sign in' }).click();
    await expect(compliancePage.getByRole('alert').innerText()).resolves.toBe(WRONG_CODE);
    await compliancePage.getByLabel(/Code from your authenticator app/).fill('AAAA-AAAA-AAAA-AAAA');
    await compliancePage.getByRole('button', { name: 'Sign in' }).click();
    await expect(compliancePage.getByRole('alert').innerText()).resolves.toBe(WRONG_CODE);
    await compliancePage.getByLabel(/Code from your authenticator app/).fill(compliance.recoveryCodes[0].toLowerCase());
    await compliancePage.getByRole('button', { name: 'Sign in' }).click();
    await compliancePage.waitForURL(`${t.baseUrl}/console/overview`);

    // A compliance member checks licences, and meets the forbidden page on Keys and Webhooks.
    await compliancePage.getByRole('link', { name: 'Verify', exact: true }).click();
    await compliancePage.getByLabel('Licence number').fill(FOUND);
    await compliancePage.getByRole('button', { name: 'Verify', exact: true }).click();
    await compliancePage.getByRole('heading', { name: `Result for ${FOUND}` }).waitFor();
    for (const path of ['keys', 'webhooks']) {
      const answer = await compliancePage.goto(`${t.baseUrl}/console/${path}`);
      expect([path, answer?.status(), await compliancePage.getByRole('alert').innerText()]).toEqual([path, 403, NOT_ALLOWED]);
    }
    await checkPage(compliancePage, 'forbidden-member');
    await compliancePage.goto(`${t.baseUrl}/console/account`);
    await checkPage(compliancePage, 'account');

    // The record names the member (never their address), as does its signed receipt; History filters by them.
    const [{ id: complianceId }] = (await t.db.query<{ id: string }>(`SELECT id FROM members WHERE email = 'casey.compliance@acme.example'`)).rows;
    const api = (path: string) => apiRequest(t.baseUrl, 'GET', path, { headers: { 'x-api-key': account.key } });
    type Listed = { verifications: Record<string, unknown>[] };
    const listed = await until(
      async () => (await api(`/v1/verifications?memberId=${complianceId}`)).body as Listed,
      (body) => body.verifications.length === 1,
      10_000,
    );
    expect(listed.verifications[0]).toMatchObject({ memberId: complianceId, keyId: null, channel: 'console', licenceNumber: FOUND, status: 'FOUND' });
    const verificationId = listed.verifications[0].verificationId as string;
    const receipt = await api(`/v1/verifications/${verificationId}/receipt`);
    const verified = await verifyWithJose(receipt.text, `${t.baseUrl}/.well-known/jwks.json`);
    expect(verified).toMatchObject({ ok: true, payload: { verificationId, memberId: complianceId, keyId: null } });
    expect(receipt.text.includes('casey') || JSON.stringify(verified).includes('casey')).toBe(false);
    const exported = await api('/v1/verifications/export');
    expect(exported.text.split('\r\n')[0].split(',').slice(2, 5)).toEqual(['keyId', 'memberId', 'memberName']);
    expect(exported.text).toContain(`,,${complianceId},Casey Compliance,`);
    await ownerPage.goto(`${t.baseUrl}/console/history`);
    await ownerPage.getByLabel('Member').selectOption({ label: 'Casey Compliance' });
    await ownerPage.getByRole('button', { name: 'Show' }).click();
    await ownerPage.waitForURL(new RegExp(`memberId=${complianceId}`));
    const rows = await ownerPage.locator('tr[data-verification-id]').evaluateAll((found) => found.map((row) => row.getAttribute('data-verification-id')));
    expect(rows).toEqual([verificationId]);
    await expect(ownerPage.locator('td[data-label="By"]').innerText()).resolves.toBe('Casey Compliance');

    // The owner removes them: their open session ends at its next request.
    await ownerPage.goto(`${t.baseUrl}/console/members`);
    await ownerPage
      .locator('tr', { hasText: 'casey.compliance@acme.example' })
      .getByRole('button', { name: /^Remove/ })
      .click();
    await ownerPage.waitForURL(`${t.baseUrl}/console/members`);
    await expect(ownerPage.locator('tr', { hasText: 'casey.compliance@acme.example' }).count()).resolves.toBe(0);
    await compliancePage.goto(`${t.baseUrl}/console/overview`);
    expect(compliancePage.url()).toBe(`${t.baseUrl}/console/sign-in`);
    await complianceContext.close();

    const events = await t.db.query<{ action: string; actor_type: string }>(
      `SELECT action, actor_type FROM activity_events WHERE user_id = $1 AND action LIKE 'member.%' ORDER BY seq`,
      [account.userId],
    );
    expect(events.rows.map((row) => `${row.action} ${row.actor_type}`)).toEqual([
      'member.invited cli',
      'member.joined member',
      'member.factor_added member',
      'member.signed_in member',
      'member.invited member',
      'member.joined member',
      'member.factor_added member',
      'member.signed_in member',
      'member.sign_in_failed member',
      'member.sign_in_failed member',
      'member.signed_in member',
      'member.removed member',
    ]);
  });

  it("names the member who uploaded a roster in the console in its rows' records; a roster sent with a key names none", async () => {
    const account = await t.createKey({ name: 'Rosters' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'sam@rosters.example', 'compliance');
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    await joinByForm(client, invited.link, now);
    const [{ id: memberId }] = (await t.db.query<{ id: string }>(`SELECT id FROM members WHERE email = 'sam@rosters.example'`)).rows;
    const uploaded = await client.uploadCsv('/console/rosters', '/console/rosters', `licenceNumber\n${FOUND}\n${UNKNOWN}`);
    expect(uploaded.status).toBe(201);
    const { id: batchId } = (await uploaded.json()) as { id: string };
    type Listed = { verifications: Record<string, unknown>[] };
    const batchRecords = (count: number) =>
      until(
        async () => (await apiRequest(t.baseUrl, 'GET', '/v1/verifications?channel=batch', { headers: { 'x-api-key': account.key } })).body as Listed,
        (body) => body.verifications.length === count,
        15_000,
      );
    await batchRecords(2);
    // The same number by the key, answered from the cache at once (200).
    const byKey = await apiRequest(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': account.key },
      body: { items: [{ licenceNumber: FOUND }] },
    });
    expect(byKey.status).toBe(200);
    const rows = (await batchRecords(3)).verifications.map(({ batchId: batch, row, memberId: member, keyId, status }) => ({
      batch,
      row,
      member,
      keyId,
      status,
    }));
    expect(rows.filter((row) => row.batch === batchId).sort((a, b) => Number(a.row) - Number(b.row))).toEqual([
      { batch: batchId, row: 1, member: memberId, keyId: null, status: 'FOUND' },
      { batch: batchId, row: 2, member: memberId, keyId: null, status: 'NOT_FOUND' },
    ]);
    expect(rows.filter((row) => row.batch !== batchId)).toEqual([
      { batch: (byKey.body as { id: string }).id, row: 1, member: null, keyId: account.keyId, status: 'FOUND' },
    ]);
    // The export names the member beside their id on each of their rows, and no one on the key's.
    const exported = await apiRequest(t.baseUrl, 'GET', '/v1/verifications/export', { headers: { 'x-api-key': account.key } });
    const cells = exported.text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',').slice(2, 5));
    expect(cells.sort()).toEqual(
      [
        ['', memberId, 'Sam Session'],
        ['', memberId, 'Sam Session'],
        [account.keyId, '', ''],
      ].sort(),
    );
  });

  it('gives a new session id at every sign-in, whatever id the browser held', async () => {
    const account = await t.createKey({ name: 'Sessions' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'sam@sessions.example', 'viewer');
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    const { secret } = await joinByForm(client, invited.link, now);
    const joinedSession = client.cookies.get('__Host-lvs_console');
    expect(joinedSession).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A session id planted before sign-in (or the one held) is replaced.
    client.cookies.set('__Host-lvs_console', 'planted-by-someone-else-000000000000000000');
    t.clock.travelTo(new Date(now() + 30_000));
    try {
      await signInByForm(client, 'sam@sessions.example', () => codeAt(secret, now()));
      const signedIn = client.cookies.get('__Host-lvs_console');
      expect(signedIn).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect([signedIn === joinedSession, signedIn === 'planted-by-someone-else-000000000000000000']).toEqual([false, false]);
      expect((await client.send('GET', '/console/overview')).status).toBe(200);
    } finally {
      t.clock.set(null);
    }
  });

  it('ends a session idle for CONSOLE_IDLE_MINUTES, and any session CONSOLE_SESSION_HOURS after sign-in, by the service clock', async () => {
    const account = await t.createKey({ name: 'Lifetimes' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'lee@lifetimes.example', 'viewer');
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    const start = now();
    try {
      await joinByForm(client, invited.link, now);
      // 29 minutes idle is within the 30; 31 is past them.
      t.clock.travelTo(new Date(start + 29 * 60_000));
      expect((await client.send('GET', '/console/overview')).status).toBe(200);
      t.clock.travelTo(new Date(start + 60 * 60_000));
      const idle = await client.send('GET', '/console/overview');
      expect([idle.status, idle.headers.get('location')]).toEqual([303, '/console/sign-in']);

      // Busy all along: a request every 25 minutes keeps it, until 12 hours after sign-in.
      const second = new FormClient(t.baseUrl);
      const again = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'kim@lifetimes.example', 'viewer');
      if ('error' in again) throw new Error(again.error);
      await joinByForm(second, again.link, now);
      const signedInAt = now();
      const statuses: number[] = [];
      for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
        t.clock.travelTo(new Date(signedInAt + minutes * 60_000));
        statuses.push((await second.send('GET', '/console/overview')).status);
      }
      expect(new Set(statuses)).toEqual(new Set([200]));
      t.clock.travelTo(new Date(signedInAt + 12 * 3600_000 + 1000));
      const ended = await second.send('GET', '/console/overview');
      expect([ended.status, ended.headers.get('location')]).toEqual([303, '/console/sign-in']);
    } finally {
      t.clock.set(null);
    }
  });

  it('keeps owners from admins and the last owner in place, ends the sessions of a member changed or disabled, and resets a second factor', async () => {
    const account = await t.createKey({ name: 'Roles' });
    const members = t.app.get(MembersService);
    const join = async (email: string, role: 'owner' | 'admin' | 'viewer') => {
      const invited = await members.invite(CLI_ORIGIN, null, account.userId, email, role);
      if ('error' in invited) throw new Error(invited.error);
      const client = new FormClient(t.baseUrl);
      const { secret } = await joinByForm(client, invited.link, now);
      const [{ id }] = (await t.db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [email])).rows;
      return { client, secret, id };
    };
    const owner = await join('olga@roles.example', 'owner');
    const admin = await join('adam@roles.example', 'admin');
    const viewer = await join('vic@roles.example', 'viewer');
    const post = async (client: FormClient, path: string, form: Record<string, string> = {}) => {
      const _csrf = await client.tokenOf('/console/account');
      return client.send('POST', path, { _csrf, ...form });
    };
    const alertOf = async (answer: Response) => [answer.status, /role="alert">([^<]*)</.exec(await answer.text())?.[1] ?? null];

    // An admin touches no owner and makes none; the last owner stays an owner.
    expect(await alertOf(await post(admin.client, `/console/members/${owner.id}/remove`))).toEqual([
      400,
      'Only an owner can invite, change, disable or remove an owner, or make someone an owner.',
    ]);
    expect(await alertOf(await post(admin.client, `/console/members/${viewer.id}/role`, { role: 'owner' }))).toEqual([
      400,
      'Only an owner can invite, change, disable or remove an owner, or make someone an owner.',
    ]);
    expect(await alertOf(await post(owner.client, `/console/members/${owner.id}/role`, { role: 'admin' }))).toEqual([
      400,
      'The account needs an owner: make another member owner first.',
    ]);
    // A viewer manages nobody: the forbidden page.
    expect((await viewer.client.send('GET', '/console/members')).status).toBe(403);

    // The admin changes the viewer's role, then disables them: each ends the viewer's sessions at once.
    expect((await post(admin.client, `/console/members/${viewer.id}/role`, { role: 'compliance' })).status).toBe(303);
    const afterRole = await viewer.client.send('GET', '/console/overview');
    expect([afterRole.status, afterRole.headers.get('location')]).toEqual([303, '/console/sign-in']);
    t.clock.travelTo(new Date(now() + 30_000));
    try {
      await signInByForm(viewer.client, 'vic@roles.example', () => codeAt(viewer.secret, now()));
      expect((await viewer.client.send('GET', '/console/verify')).status).toBe(200);
      expect((await post(admin.client, `/console/members/${viewer.id}/disable`)).status).toBe(303);
      const afterDisable = await viewer.client.send('GET', '/console/overview');
      expect([afterDisable.status, afterDisable.headers.get('location')]).toEqual([303, '/console/sign-in']);

      // The owner resets their second factor: the new key's first code confirms it, with ten new recovery codes.
      const started = await (await post(owner.client, '/console/account/factor')).text();
      const secret = /id="totp-secret" class="secret">([A-Z2-7]+)</.exec(started)![1];
      expect(secret).not.toBe(owner.secret);
      const confirmed = await post(owner.client, '/console/account/factor/confirm', { code: codeAt(secret, now()) });
      expect(confirmed.status).toBe(200);
      expect((await confirmed.text()).match(/<li><code>[0-9A-Z-]{19}<\/code><\/li>/g)).toHaveLength(10);
    } finally {
      t.clock.set(null);
    }
    const events = await t.db.query<{ action: string; actor_id: string; target_id: string }>(
      `SELECT action, actor_id, target_id FROM activity_events
        WHERE user_id = $1 AND action IN ('member.role_changed', 'member.disabled', 'member.factor_reset', 'session.ended') ORDER BY seq`,
      [account.userId],
    );
    expect(events.rows.map((row) => [row.action, row.actor_id, row.action === 'session.ended' ? 'a session' : row.target_id])).toEqual([
      ['member.role_changed', admin.id, viewer.id],
      ['session.ended', admin.id, 'a session'],
      ['member.disabled', admin.id, viewer.id],
      ['session.ended', admin.id, 'a session'],
      ['member.factor_reset', owner.id, owner.id],
    ]);
  });

  it('lets no more than SIGN_IN_FAILURES_PER_EMAIL of 30 simultaneous password attempts reach a password check', async () => {
    const account = await t.createKey({ name: 'Limits' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'pat@limits.example', 'viewer');
    if ('error' in invited) throw new Error(invited.error);
    await joinByForm(new FormClient(t.baseUrl), invited.link, now);
    const client = new FormClient(t.baseUrl);
    const _csrf = await client.tokenOf('/console/sign-in');
    const from = { 'x-forwarded-for': '203.0.113.7' };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        client.send('POST', '/console/sign-in', { _csrf, email: 'pat@limits.example', password: `wrong guess ${index}` }, from),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect([statuses.filter((status) => status === 401).length, statuses.filter((status) => status === 429).length]).toEqual([5, 25]);
    // The right password is refused too while the limit holds: the count comes first.
    const right = await client.send('POST', '/console/sign-in', { _csrf, email: 'pat@limits.example', password: PASSWORD }, from);
    expect(right.status).toBe(429);
    const failures = await t.db.query(`SELECT count(*)::int AS n FROM activity_events WHERE user_id = $1 AND action = 'member.sign_in_failed'`, [
      account.userId,
    ]);
    expect(failures.rows[0]).toEqual({ n: 5 });
  });
});
