import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { runAdminCli } from '../support/admin-cli';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { joinAsOperator, startOperatorApi } from '../support/operator-join';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const PASSWORD = 'harbour willow granite ember 64';
const WRONG = 'The e-mail address, password or code is not right.';
const SELF = 'You cannot disable, remove or change the role of your own account: ask another operator. Nothing was changed.';
const LAST_OPERATOR = 'The service needs an active operator who may change things: make another one active first. Nothing was changed.';

interface Signed {
  context: BrowserContext;
  page: Page;
  id: string;
  recoveryCodes: string[];
}

/**
 * The Operators page and the admin command's operator changes, on the operators' listener of a real API process: an
 * `operator` disables another (whose session ends at once, and whose sign-in is refused in a wrong password's words),
 * enables them, changes a role and removes an operator, each with a reason and logged; never their own account, and
 * never the last active operator (the admin command is refused it too); a support operator sees the pages, no form,
 * and is refused a change with 403.
 */
describe('operators managing operators', () => {
  let t: TestApp;
  let api: ApiProcess;
  let operatorUrl: string;
  let cliEnv: Record<string, string>;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    ({ api, operatorUrl, cliEnv } = await startOperatorApi(t.env));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await t.close();
  });

  const checkPage = (page: Page, name: string) => checkPageAt(page, SCREENSHOTS, name);

  async function join(email: string, role: 'operator' | 'support'): Promise<Signed> {
    const { context, page } = await openProfile(browser);
    const { recoveryCodes } = await joinAsOperator(page, { operatorUrl, cliEnv }, { email, role, password: PASSWORD });
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM operators WHERE email = $1', [email]);
    return { context, page, id: rows[0].id, recoveryCodes };
  }

  const cookieOf = async (context: BrowserContext) => (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const sessionOf = async (context: BrowserContext) => (await context.cookies()).find((cookie) => cookie.name === '__Host-lvs_operator')!.value;

  /** A form sent without the browser, as a signed-in operator: the status, and the page's alert. */
  async function send(who: Signed, path: string, fields: Record<string, string>): Promise<{ status: number; alert: string | undefined }> {
    await who.page.goto(`${operatorUrl}/operator/operators`);
    const _csrf = await who.page.locator('input[name="_csrf"]').first().inputValue();
    const answer = await fetch(`${operatorUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: operatorUrl, cookie: await cookieOf(who.context) },
      body: new URLSearchParams({ _csrf, ...fields }).toString(),
    });
    return { status: answer.status, alert: /role="alert">([^<]*)</.exec(await answer.text())?.[1] };
  }

  /** The sign-in form with the password and a code: its answer's status, and the alert of the page it leads to. */
  async function signInWithPassword(page: Page, email: string, code: string): Promise<{ status: number; alert: string | null }> {
    await page.goto(`${operatorUrl}/operator/sign-in`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Code').fill(code);
    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/operator/sign-in',
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    const status = (await answered).status();
    await page.waitForLoadState();
    const alert = page.getByRole('alert');
    return { status, alert: (await alert.count()) === 1 ? await alert.innerText() : null };
  }

  const statusOf = async (email: string) =>
    (await t.db.query<{ role: string; disabled: boolean }>('SELECT role, disabled_at IS NOT NULL AS disabled FROM operators WHERE email = $1', [email]))
      .rows;

  it('lets an operator disable, enable, re-role and remove others with a reason, never themselves nor the last active operator', async () => {
    const ana = await join('ana@ops.example', 'operator');
    const bo = await join('bo@ops.example', 'operator');
    const sam = await join('sam@ops.example', 'support');

    // A support operator: the Operators page and an operator's page, with no form but sign-out; a change sent anyway, 403.
    for (const path of ['/operator/operators', `/operator/operators/${bo.id}`]) {
      const answer = await sam.page.goto(`${operatorUrl}${path}`);
      expect([path, answer!.status(), await sam.page.locator('form[method="post"]').count()]).toEqual([path, 200, 1]);
    }
    const refused = await send(sam, `/operator/operators/${bo.id}/disable`, { reason: 'trying' });
    expect([refused.status, refused.alert]).toEqual([403, 'Your role is support, which may read every page and change nothing. Nothing was done.']);
    expect(await statusOf('bo@ops.example')).toEqual([{ role: 'operator', disabled: false }]);

    // The Operators page lists all three; Ana's own page has no form, and a change of herself sent anyway is refused.
    await ana.page.goto(`${operatorUrl}/operator/operators`);
    await expect(ana.page.locator('tr[data-operator-id] td[data-label="E-mail address"]').allInnerTexts()).resolves.toEqual([
      'ana@ops.example',
      'bo@ops.example',
      'sam@ops.example',
    ]);
    await checkPage(ana.page, 'operators');
    await ana.page.goto(`${operatorUrl}/operator/operators/${ana.id}`);
    expect(await ana.page.locator('form[method="post"]').count()).toBe(1);
    for (const [action, fields] of [
      ['disable', {}],
      ['role', { role: 'support' }],
      ['remove', {}],
    ] as const) {
      const self = await send(ana, `/operator/operators/${ana.id}/${action}`, { reason: 'mine', ...fields });
      expect([action, self.status, self.alert]).toEqual([action, 400, SELF]);
    }
    const unknown = await ana.page.goto(`${operatorUrl}/operator/operators/00000000-0000-4000-8000-000000000000`);
    expect(unknown!.status()).toBe(404);
    const noReason = await send(ana, `/operator/operators/${bo.id}/disable`, { reason: ' ' });
    expect(noReason.status).toBe(400);

    // Ana disables Bo: his session ends at once (its Redis key gone), and his sign-in is refused in a wrong code's words.
    const boSession = await sessionOf(bo.context);
    const boKey = `${t.redisPrefix}:operator-session:${createHash('sha256').update(boSession).digest('hex')}`;
    expect(await t.redis.exists(boKey)).toBe(1);
    await ana.page.goto(`${operatorUrl}/operator/operators/${bo.id}`);
    await checkPage(ana.page, 'operator');
    await ana.page.locator('#status-reason').fill('Left the team, ticket 5120');
    await ana.page.getByRole('button', { name: 'Disable the operator' }).click();
    await expect(ana.page.locator('[data-figure="status"]').innerText()).resolves.toBe('disabled');
    expect(await t.redis.exists(boKey)).toBe(0);
    const ended = await fetch(`${operatorUrl}/operator/partners`, { redirect: 'manual', headers: { cookie: await cookieOf(bo.context) } });
    expect([ended.status, ended.headers.get('location')]).toEqual([303, '/operator/sign-in']);
    await expect(signInWithPassword(bo.page, 'bo@ops.example', bo.recoveryCodes[0])).resolves.toEqual({ status: 401, alert: WRONG });

    // Enabled again, the same recovery code signs him in: the refusal spent nothing.
    await ana.page.locator('#status-reason').fill('Back from leave');
    await ana.page.getByRole('button', { name: 'Enable the operator' }).click();
    await expect(ana.page.locator('[data-figure="status"]').innerText()).resolves.toBe('active');
    await expect(signInWithPassword(bo.page, 'bo@ops.example', bo.recoveryCodes[0])).resolves.toEqual({ status: 303, alert: null });
    await bo.page.waitForURL(`${operatorUrl}/operator/partners`);

    // Ana makes Sam an operator: Sam's forms appear at his next page.
    await ana.page.goto(`${operatorUrl}/operator/operators/${sam.id}`);
    await ana.page.locator('#role').selectOption('operator');
    await ana.page.locator('#role-reason').fill('Joined the on-call rota');
    await ana.page.getByRole('button', { name: 'Change the role' }).click();
    await expect(ana.page.locator('[data-figure="role"]').innerText()).resolves.toBe('operator');
    await sam.page.goto(`${operatorUrl}/operator/operators/${bo.id}`);
    expect(await sam.page.locator('form[method="post"]').count()).toBe(4);

    // The admin command: Bo and Sam made support, Ana is the last active operator, whom it neither disables, demotes nor removes.
    for (const email of ['bo@ops.example', 'sam@ops.example']) {
      const demoted = await runAdminCli(cliEnv, 'set-operator-role', '--email', email, '--role', 'support', '--reason', 'Rota ended');
      expect([email, demoted.status, JSON.parse(demoted.stdout)]).toEqual([email, 0, { email, changed: true }]);
    }
    for (const args of [['disable-operator'], ['remove-operator'], ['set-operator-role', '--role', 'support']]) {
      const last = await runAdminCli(cliEnv, ...args, '--email', 'ana@ops.example', '--reason', 'test');
      expect([args[0], last.status, last.stdout, last.stderr.trim()]).toEqual([args[0], 2, '', LAST_OPERATOR]);
    }
    const again = await runAdminCli(cliEnv, 'set-operator-role', '--email', 'sam@ops.example', '--role', 'support');
    expect([again.status, JSON.parse(again.stdout)]).toEqual([0, { email: 'sam@ops.example', changed: false }]);
    const nobody = await runAdminCli(cliEnv, 'disable-operator', '--email', 'nobody@ops.example');
    expect([nobody.status, nobody.stderr.trim()]).toEqual([2, 'No operator nobody@ops.example']);
    expect(await statusOf('ana@ops.example')).toEqual([{ role: 'operator', disabled: false }]);

    // Ana removes Sam: his row and his session are gone; the list has two.
    await ana.page.goto(`${operatorUrl}/operator/operators/${sam.id}`);
    await ana.page.locator('#remove-reason').fill('Contract ended');
    await ana.page.getByRole('button', { name: 'Remove the operator' }).click();
    await ana.page.waitForURL(`${operatorUrl}/operator/operators`);
    await expect(ana.page.locator('tr[data-operator-id]').count()).resolves.toBe(2);
    expect(await statusOf('sam@ops.example')).toEqual([]);
    const samEnded = await fetch(`${operatorUrl}/operator/partners`, { redirect: 'manual', headers: { cookie: await cookieOf(sam.context) } });
    expect(samEnded.status).toBe(303);

    // The operators' log: the invitations by the command, then every change with its actor and reason.
    const { rows } = await t.db.query<{ action: string; actor: string; target_id: string; reason: string | null; changes: object }>(
      `SELECT action, actor_type || ':' || CASE WHEN actor_type = 'cli' THEN 'os-user' ELSE actor_id END AS actor, target_id, reason, changes
         FROM operator_actions WHERE target_type = 'operator' ORDER BY occurred_at, id`,
    );
    const ana_ = `operator:${ana.id}`;
    const same = (email: string) => ({ old: email, new: email });
    expect(rows).toEqual([
      expect.objectContaining({ action: 'operator.invited', actor: 'cli:os-user', target_id: ana.id, reason: null }),
      expect.objectContaining({ action: 'operator.invited', actor: 'cli:os-user', target_id: bo.id, reason: null }),
      expect.objectContaining({ action: 'operator.invited', actor: 'cli:os-user', target_id: sam.id, reason: null }),
      {
        action: 'operator.disabled',
        actor: ana_,
        target_id: bo.id,
        reason: 'Left the team, ticket 5120',
        changes: { email: same('bo@ops.example'), status: { old: 'active', new: 'disabled' } },
      },
      {
        action: 'operator.enabled',
        actor: ana_,
        target_id: bo.id,
        reason: 'Back from leave',
        changes: { email: same('bo@ops.example'), status: { old: 'disabled', new: 'active' } },
      },
      {
        action: 'operator.role_changed',
        actor: ana_,
        target_id: sam.id,
        reason: 'Joined the on-call rota',
        changes: { email: same('sam@ops.example'), role: { old: 'support', new: 'operator' } },
      },
      {
        action: 'operator.role_changed',
        actor: 'cli:os-user',
        target_id: bo.id,
        reason: 'Rota ended',
        changes: { email: same('bo@ops.example'), role: { old: 'operator', new: 'support' } },
      },
      {
        action: 'operator.role_changed',
        actor: 'cli:os-user',
        target_id: sam.id,
        reason: 'Rota ended',
        changes: { email: same('sam@ops.example'), role: { old: 'operator', new: 'support' } },
      },
      {
        action: 'operator.removed',
        actor: ana_,
        target_id: sam.id,
        reason: 'Contract ended',
        changes: { email: { old: 'sam@ops.example', new: null }, role: { old: 'support', new: null } },
      },
    ]);
    // The command's entries name the operating-system user who ran it, from this host.
    const { rows: cli } = await t.db.query<{ actor_id: string; source: string }>(
      `SELECT DISTINCT actor_id, source FROM operator_actions WHERE actor_type = 'cli'`,
    );
    expect(cli).toEqual([{ actor_id: userInfo().username, source: hostname() }]);

    // The Operator activity page names each operator, the removed one by the address its entry kept.
    await ana.page.goto(`${operatorUrl}/operator/activity`);
    const named = await ana.page.locator('[data-operator-log] td[data-label="Partner or operator"]').allInnerTexts();
    expect(named[0]).toBe('operator sam@ops.example');
    expect(named).toContain('operator bo@ops.example');
    for (const { context } of [ana, bo, sam]) await context.close();
  }, 180_000);
});
