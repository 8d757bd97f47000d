import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { FormClient } from '../support/console-client';
import { request, TestResponse } from '../support/http';
import { joinAsMember, MEMBER_PASSWORD } from '../support/member-join';
import { joinAsOperator, startOperatorApi } from '../support/operator-join';
import { runAdminCli } from '../support/admin-cli';
import { columnsNamingIn, redisText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const ADMIN_TOKEN = 'admin-token-for-operator-console-tests';
const PASSWORD = 'violet anchor meadow quartz 71';
const ROUTE_NOT_FOUND = { code: 'ROUTE_NOT_FOUND', message: 'Route not found' };
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
/** Every page behind an operator's session. */
const PAGES = [
  '/operator/partners',
  '/operator/partners/00000000-0000-4000-8000-000000000000',
  '/operator/register',
  '/operator/queues',
  '/operator/activity',
];

/**
 * The operator console on the operators' listener of a real API process, with the real admin command and worker: an
 * operator invited by the command joins with a password and TOTP (codes computed with otplib), finds a partner,
 * raises its quota, disables it and deletes another; a support operator reads and changes nothing.
 */
describe('the operator console', () => {
  let t: TestApp;
  let api: ApiProcess;
  let operatorUrl: string;
  let cliEnv: Record<string, string>;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    // A rate the operator pages' limit is reached at within the test (the test app's own is unbounded).
    ({ api, operatorUrl, cliEnv } = await startOperatorApi({ ...t.env, ADMIN_TOKEN, RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '40' }));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await t.close();
  });

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(api.baseUrl, method, path, { headers: { 'x-api-key': apiKey, 'idempotency-key': `${path}-${Math.random()}` }, body });
  const verify = (apiKey: string, licenceNumber: string) => call(apiKey, 'POST', '/v1/licences/verify', { licenceNumber });

  /** A browser profile of its own (its own cookies), confirming every form's question. */
  const openPage = () => openProfile(browser);
  const checkPage = (page: Page, name: string) => checkPageAt(page, SCREENSHOTS, name);

  /** Invites through the admin command, then takes the invitation: password, then TOTP; the join pages checked when asked. */
  const joinAs = (page: Page, email: string, role: 'operator' | 'support', check = false) =>
    joinAsOperator(page, { operatorUrl, cliEnv }, { email, role, password: PASSWORD }, check ? (name) => checkPage(page, name) : undefined);

  /** The session cookie of a browser profile, for requests made without the browser. */
  async function cookieOf(context: BrowserContext): Promise<string> {
    return (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  it('answers /operator with 404 on the partner port, and leads every page to sign-in without a session', async () => {
    for (const path of ['/operator', ...PAGES]) {
      const partnerPort = await request(api.baseUrl, 'GET', path);
      expect([path, partnerPort.status, partnerPort.body]).toEqual([path, 404, ROUTE_NOT_FOUND]);
    }
    for (const path of PAGES) {
      // The admin token is for machines: it opens no operator page.
      const answer = await fetch(`${operatorUrl}${path}`, { redirect: 'manual', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect([path, answer.status, answer.headers.get('location')]).toEqual([path, 303, '/operator/sign-in']);
    }
    const change = await fetch(`${operatorUrl}/operator/partners/00000000-0000-4000-8000-000000000000/disable`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: operatorUrl },
      body: 'reason=x&_csrf=y',
    });
    expect([change.status, change.headers.get('location')]).toEqual([303, '/operator/sign-in']);
  });

  it('lets an invited operator raise a quota, disable a partner and delete another, each logged with its reason', async () => {
    const name = `Acme Guarding ${Date.now()}`;
    const acme = await t.createKey({ name, quota: 1 });
    expect((await verify(acme.key, SANDBOX_NUMBERS.active)).status).toBe(200);
    const refused = await verify(acme.key, SANDBOX_NUMBERS.expired);
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([429, 'QUOTA_EXCEEDED']);

    const { context, page } = await openPage();
    const { recoveryCodes, usedCode } = await joinAs(page, 'ana@operators.example', 'operator', true);
    expect(recoveryCodes).toHaveLength(10);
    await checkPage(page, 'recovery-codes');
    const { rows } = await t.db.query<{ id: string; password_hash: string; totp_secret: string }>(
      `SELECT id, password_hash, totp_secret FROM operators WHERE email = 'ana@operators.example'`,
    );
    const operatorId = rows[0].id;
    // Stored as an argon2id hash and a sealed secret, never as given.
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].totp_secret).toMatch(/^v2\./);

    // Signed in: signs out; the TOTP code just used is refused, a recovery code signs in, once.
    await page.getByRole('link', { name: 'Go to the partners' }).click();
    await page.getByRole('button', { name: /^Sign out/ }).click();
    await page.waitForURL(`${operatorUrl}/operator/sign-in`);
    await checkPage(page, 'sign-in');
    const signIn = async (code: string) => {
      await page.getByLabel('E-mail address').fill('ana@operators.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await signIn(usedCode);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address, password or code is not right.');
    await signIn(recoveryCodes[0]);
    await page.waitForURL(`${operatorUrl}/operator/partners`);

    // Finds the partner by its key's prefix (as the partner's Keys page shows it), then raises its quota with a reason.
    const { rows: prefixes } = await t.db.query<{ key_prefix: string }>('SELECT key_prefix FROM api_keys WHERE user_id = $1', [acme.userId]);
    expect(acme.key.startsWith(prefixes[0].key_prefix)).toBe(true);
    await page.goto(`${operatorUrl}/operator/partners?q=${encodeURIComponent(prefixes[0].key_prefix)}`);
    await expect(page.locator('tr[data-partner-id]').count()).resolves.toBe(1);
    await expect(page.locator(`tr[data-partner-id="${acme.userId}"] td[data-label="Share"]`).textContent()).resolves.toBe('100 % near the plan');
    await checkPage(page, 'partners');
    await page.getByRole('link', { name }).click();
    await page.waitForURL(`${operatorUrl}/operator/partners/${acme.userId}`);
    await checkPage(page, 'partner');
    await page.locator('#quota-value').fill('5');
    await page.locator('#quota-reason').fill('Upgraded to Standard, ticket 4411');
    await page.getByRole('button', { name: 'Set plan quota' }).click();
    await expect(page.locator('[data-figure="quota"]').textContent()).resolves.toBe('5');
    expect((await verify(acme.key, SANDBOX_NUMBERS.expired)).status).toBe(200);

    // The partner's own activity log shows the change, the operator its actor; the operators' log the reason.
    const activity = await call(acme.key, 'GET', '/v1/activity?action=account.quota_changed');
    expect(activity.status).toBe(200);
    expect((activity.body as { events: object[] }).events).toEqual([
      expect.objectContaining({
        actor: { type: 'operator', id: operatorId },
        action: 'account.quota_changed',
        target: { type: 'account', id: acme.userId },
        clientAddress: '127.0.0.1',
        changes: { monthlyQuota: { old: 1, new: 5 } },
      }),
    ]);

    // The partner's owner, invited by the admin command, finds it on the console's Activity page, by the operator (issue 42).
    const invitation = await runAdminCli(cliEnv, 'invite', '--user', acme.userId, '--email', 'owen@acme.example', '--role', 'owner');
    expect([invitation.status, invitation.stderr]).toEqual([0, '']);
    const { context: ownerContext, page: ownerPage } = await openPage();
    await joinAsMember(ownerPage, api.baseUrl, invitation.stdout.trim(), { name: 'Owen Owner', password: MEMBER_PASSWORD, nowMs: Date.now });
    await ownerPage.getByRole('link', { name: 'Activity' }).click();
    await ownerPage.getByLabel('Action').selectOption('account.quota_changed');
    await ownerPage.getByRole('button', { name: 'Show' }).click();
    await ownerPage.waitForURL(/action=account\.quota_changed/);
    const quotaRows = ownerPage.locator('tr[data-event-id]');
    await expect(quotaRows.count()).resolves.toBe(1);
    await expect(quotaRows.locator('td').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      'The service’s operator',
      'account.quota_changed',
      'The account',
      'monthlyQuota: 1 → 5',
      '127.0.0.1',
    ]);
    await ownerContext.close();

    // Disables the partner: its key answers 401, and its console session ends.
    const acmeConsole = new FormClient(api.baseUrl);
    expect((await acmeConsole.signIn(acme.key)).status).toBe(303);
    expect((await acmeConsole.send('GET', '/console/overview')).status).toBe(200);
    await page.locator('#status-reason').fill('Unpaid invoice 2026-11');
    await page.getByRole('button', { name: 'Disable the partner' }).click();
    await expect(page.locator('[data-figure="status"]').textContent()).resolves.toMatch(/^Disabled since /);
    const disabled = await call(acme.key, 'GET', '/v1/quota/usage');
    expect([disabled.status, disabled.body]).toEqual([401, UNAUTHORIZED]);
    const ended = await acmeConsole.send('GET', '/console/overview');
    expect([ended.status, ended.headers.get('location')]).toEqual([303, '/console/sign-in']);

    // Deletes another partner once its name is typed: no row and no Redis key of it stays.
    const leaving = await t.createKey({ name: 'Leaving Ltd', quota: 10 });
    expect((await verify(leaving.key, SANDBOX_NUMBERS.active)).status).toBe(200);
    const { rows: keyRows } = await t.db.query<{ id: string; key_hash: string }>('SELECT id, key_hash FROM api_keys WHERE user_id = $1', [leaving.userId]);
    await page.goto(`${operatorUrl}/operator/partners/${leaving.userId}`);
    await page.locator('#confirm-name').fill('Leaving');
    await page.locator('#delete-reason').fill('Contract ended');
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The name typed is not the partner’s name. Nothing was deleted.');
    expect((await call(leaving.key, 'GET', '/v1/quota/usage')).status).toBe(200);
    await page.locator('#confirm-name').fill('Leaving Ltd');
    await page.locator('#delete-reason').fill('Contract ended');
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(`${operatorUrl}/operator/partners`);
    for (const needle of [leaving.userId, ...keyRows.flatMap((row) => [row.id, row.key_hash])]) {
      expect([needle, await columnsNamingIn(t.db, needle)]).toEqual([needle, []]);
    }
    const redis = await redisText(t.redis, t.redisPrefix);
    for (const needle of [leaving.userId, ...keyRows.map((row) => row.key_hash)]) expect([needle, redis.includes(needle)]).toEqual([needle, false]);

    // The operators' log: who, from where, what, of which partner, and why; the deleted one by its reference alone.
    await page.goto(`${operatorUrl}/operator/activity`);
    await checkPage(page, 'activity');
    const { rows: log } = await t.db.query<{
      action: string;
      actor_type: string;
      actor_id: string;
      source: string;
      user_id: string | null;
      reason: string;
    }>(`SELECT action, actor_type, actor_id, source, user_id, reason FROM operator_actions WHERE actor_id = $1 ORDER BY occurred_at`, [operatorId]);
    expect(log).toEqual([
      {
        action: 'account.quota_changed',
        actor_type: 'operator',
        actor_id: operatorId,
        source: '127.0.0.1',
        user_id: acme.userId,
        reason: 'Upgraded to Standard, ticket 4411',
      },
      {
        action: 'account.disabled',
        actor_type: 'operator',
        actor_id: operatorId,
        source: '127.0.0.1',
        user_id: acme.userId,
        reason: 'Unpaid invoice 2026-11',
      },
      { action: 'account.deleted', actor_type: 'operator', actor_id: operatorId, source: '127.0.0.1', user_id: null, reason: 'Contract ended' },
    ]);
    // The three changes, and the operator's own invitation by the admin command.
    await expect(page.locator('[data-operator-log] td[data-label="Action"]').allTextContents()).resolves.toEqual([
      'account.deleted',
      'account.disabled',
      'account.quota_changed',
      'operator.invited',
    ]);

    // The Register page's own series are what this process's /metrics serves, series for series (its figures from the
    // workers: operator-register.e2e-spec.ts, which also checks and pictures the page).
    const cookie = await cookieOf(context);
    const before = await (await fetch(`${operatorUrl}/metrics`)).text();
    const registerPage = await (await fetch(`${operatorUrl}/operator/register`, { headers: { cookie } })).text();
    const after = await (await fetch(`${operatorUrl}/metrics`)).text();
    const shown = [...registerPage.matchAll(/<td data-label="Series"><code>([^<]+)<\/code><\/td><td data-label="Value">([^<]+)<\/td>/g)].map(
      ([, series, value]) => `${series.replace(/&quot;/g, '"')} ${value}`,
    );
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(shown.filter((line) => !before.split('\n').includes(line) || !after.split('\n').includes(line))).toEqual([]);
    await page.goto(`${operatorUrl}/operator/queues`);
    await expect(page.locator('tr[data-queue]').count()).resolves.toBe(3);
    await checkPage(page, 'queues');

    // A partner's console session is no operator session.
    const other = new FormClient(api.baseUrl);
    expect((await other.signIn((await t.createKey({ name: 'Other partner' })).key)).status).toBe(303);
    expect([...other.cookies.keys()]).toContain('__Host-lvs_console');
    const asPartner = await fetch(`${operatorUrl}/operator/partners`, { redirect: 'manual', headers: { cookie: other.cookieHeader } });
    expect([asPartner.status, asPartner.headers.get('location')]).toEqual([303, '/operator/sign-in']);
    // The operator's session opens no partner console page.
    const asOperator = await fetch(`${api.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie } });
    expect([asOperator.status, asOperator.headers.get('location')]).toEqual([303, '/console/sign-in']);
    // A recovery code signs in once only.
    await page.getByRole('button', { name: /^Sign out/ }).click();
    await signIn(recoveryCodes[0]);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address, password or code is not right.');
    await context.close();
  }, 180_000);

  it('shows a support operator every page and no form, and refuses a change they send with 403', async () => {
    const partner = await t.createKey({ name: 'Read Only Partner', quota: 3 });
    for (const number of [SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.expired, SANDBOX_NUMBERS.revoked])
      expect((await verify(partner.key, number)).status).toBe(200);
    // Two refusals past the quota, counted for today on the partner's page (another partner's refusal is not its).
    for (const number of [SANDBOX_NUMBERS.suspended, SANDBOX_NUMBERS.refused]) expect((await verify(partner.key, number)).status).toBe(429);
    const { context, page } = await openPage();
    await joinAs(page, 'sam@operators.example', 'support');
    await page.goto(`${operatorUrl}/operator/partners/${partner.userId}`);
    const refusalRows = await page.locator('[data-refusals] tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent));
    expect(refusalRows).toHaveLength(7);
    expect(refusalRows[6]).toBe(`${new Date().toISOString().slice(0, 10)}2000`);
    expect(refusalRows.slice(0, 6).every((row) => row!.endsWith('0000'))).toBe(true);
    for (const path of ['/operator/partners', `/operator/partners/${partner.userId}`, '/operator/register', '/operator/queues', '/operator/activity']) {
      const answer = await page.goto(`${operatorUrl}${path}`);
      expect([path, answer!.status()]).toEqual([path, 200]);
      // Only the sign-out form, on every page.
      expect([path, await page.locator('form[method="post"]').count()]).toEqual([path, 1]);
    }
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const refused = await fetch(`${operatorUrl}/operator/partners/${partner.userId}/settings/quota`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: operatorUrl, cookie: await cookieOf(context) },
      body: new URLSearchParams({ _csrf: csrf, value: '999', reason: 'trying' }).toString(),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Your role is support, which may read every page and change nothing. Nothing was done.');
    const { rows } = await t.db.query<{ monthly_quota: number }>('SELECT monthly_quota FROM users WHERE id = $1', [partner.userId]);
    expect(rows).toEqual([{ monthly_quota: 3 }]);

    // The operators' log, 100 a page, followed by its Next page links: each entry once, none lost, though many of
    // these were written within the same millisecond.
    await t.db.query(
      `INSERT INTO operator_actions (actor_type, actor_id, source, action, user_id, target_type, target_id, reason, changes)
       SELECT 'cli', 'paging', 'host', 'key.revoked', $1, 'key', 'k' || g, 'paging ' || g, '{}' FROM generate_series(1, 205) g`,
      [partner.userId],
    );
    const { rows: logged } = await t.db.query<{ count: string }>('SELECT count(*) FROM operator_actions');
    const reasons: string[] = [];
    const pageSizes: number[] = [];
    let next: string | null = `${operatorUrl}/operator/activity`;
    while (next !== null) {
      await page.goto(next);
      const cells = await page.locator('[data-operator-log] td[data-label="Reason"]').allTextContents();
      pageSizes.push(cells.length);
      reasons.push(...cells.filter((cell) => cell.startsWith('paging ')));
      const link = page.getByRole('link', { name: 'Next page' });
      next = (await link.count()) === 1 ? new URL((await link.getAttribute('href'))!, operatorUrl).href : null;
    }
    const total = Number(logged[0].count);
    expect(pageSizes).toEqual([...Array.from({ length: Math.ceil(total / 100) - 1 }, () => 100), total % 100 || 100]);
    expect(reasons).toHaveLength(205);
    expect(new Set(reasons).size).toBe(205);
    // Newest first across the pages, as stored (entries of one millisecond by id).
    const { rows: stored } = await t.db.query<{ reason: string }>(
      `SELECT reason FROM operator_actions WHERE actor_id = 'paging' ORDER BY date_trunc('milliseconds', occurred_at) DESC, id DESC`,
    );
    expect(reasons).toEqual(stored.map((row) => row.reason));

    // Pages too take from a bucket of the operator's own, at the partners' default rate (5 a second, 40 at once): past it, 429.
    const cookie = await cookieOf(context);
    let sent = 0;
    let limited: Response | null = null;
    while (limited === null && sent < 200) {
      const answer = await fetch(`${operatorUrl}/operator/queues`, { headers: { cookie } });
      sent++;
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(200);
    }
    // The pages above took part of the burst already.
    expect(sent).toBeGreaterThan(20);
    expect(sent).toBeLessThan(200);
    expect(limited!.headers.get('retry-after')).toBe('1');
    expect(limited!.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await limited!.text()).toContain('You have opened pages or sent forms faster than the console allows. Nothing was done.');
    await context.close();
  }, 60_000);

  it('answers the partner list of 10,000 partners, made in one statement, in under a second', async () => {
    await t.db.query(`INSERT INTO users (name, monthly_quota) SELECT 'Bulk partner ' || g, 100 + g % 50 FROM generate_series(1, 10000) g`);
    const { context, page } = await openPage();
    await joinAs(page, 'bo@operators.example', 'operator');
    const cookie = await cookieOf(context);
    for (const sort of ['name', 'usage', 'share']) {
      const started = performance.now();
      const answer = await fetch(`${operatorUrl}/operator/partners?sort=${sort}`, { headers: { cookie } });
      const html = await answer.text();
      const elapsed = performance.now() - started;
      expect([sort, answer.status, (html.match(/<tr data-partner-id=/g) ?? []).length]).toEqual([sort, 200, 50]);
      expect({ sort, fast: elapsed < 1000 }).toEqual({ sort, fast: true });
    }
    await context.close();
  }, 60_000);
});
