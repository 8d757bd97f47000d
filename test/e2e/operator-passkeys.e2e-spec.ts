import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { runAdminCli } from '../support/admin-cli';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfileWithAuthenticator } from '../support/browser';
import { joinAsOperator, startOperatorApi } from '../support/operator-join';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const PASSWORD = 'lantern orchid basalt comet 58';
const WRONG_PASSKEY = 'That passkey did not sign you in. Use a passkey you added on Your account, or your password and code.';

/**
 * Operators' passkeys in Chromium with a virtual authenticator, on the operators' listener of a real API process: a
 * support operator (who changes nothing else) adds one on Your account and signs in with it alone; the answer works
 * once; disabled by the admin command, its operator's session ends and the passkey signs no one in until enabled;
 * removed, it signs no one in. WebAuthn refuses an IP address as the relying party's id, so the browser opens the
 * console at localhost, which the console takes as its origin (OPERATOR_PUBLIC_URL is unset).
 */
describe('passkeys in the operator console', () => {
  let t: TestApp;
  let api: ApiProcess;
  let operatorUrl: string;
  let cliEnv: Record<string, string>;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    ({ api, operatorUrl, cliEnv } = await startOperatorApi(t.env, { browserHost: 'localhost' }));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await t.close();
  });

  const checkPage = (page: Page, name: string) => checkPageAt(page, SCREENSHOTS, name);
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: /^Sign out/ }).click();
    await page.waitForURL(`${operatorUrl}/operator/sign-in`);
  }

  /** The passkey form of the sign-in page: where the browser ended, and the alert it shows, if any. */
  async function usePasskey(page: Page): Promise<{ url: string; alert: string | null }> {
    await page.goto(`${operatorUrl}/operator/sign-in`);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => url.pathname !== '/operator/sign-in');
    const alert = page.getByRole('alert');
    return { url: page.url(), alert: (await alert.count()) === 1 ? await alert.innerText() : null };
  }

  const log = async () =>
    (
      await t.db.query<{ action: string; actor_type: string; actor_id: string; target_id: string; reason: string | null; changes: object }>(
        `SELECT action, actor_type, actor_id, target_id, reason, changes FROM operator_actions WHERE target_type = 'operator' ORDER BY occurred_at, id`,
      )
    ).rows;

  it('signs a support operator in with a passkey alone once they added it; disabled, enabled and removed, it follows its operator', async () => {
    const { context, page, credentials } = await openProfileWithAuthenticator(browser);
    await joinAsOperator(page, { operatorUrl, cliEnv }, { email: 'pia@operators.example', role: 'support', password: PASSWORD });
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM operators WHERE email = 'pia@operators.example'`);
    const piaId = rows[0].id;

    // Your account: no passkeys yet; a support operator may add one (their own account), though they change nothing else.
    await page.goto(`${operatorUrl}/operator/account`);
    await expect(heading(page)).resolves.toBe('Your account');
    await expect(page.getByText('You have no passkeys.').count()).resolves.toBe(1);
    await checkPage(page, 'account');
    await page.getByLabel('Name of the new passkey').fill('  Work   laptop ');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toBe('Your passkey is added: it signs you in without your password or code.');
    const [made] = await credentials();
    const stored = await t.db.query(
      `SELECT operator_id, credential_id, transports, name, last_used_at, length(public_key) > 0 AS has_key FROM operator_passkeys`,
    );
    expect(stored.rows).toEqual([
      {
        operator_id: piaId,
        credential_id: Buffer.from(made.credentialId, 'base64').toString('base64url'),
        transports: ['internal'],
        name: 'Work laptop',
        last_used_at: null,
        has_key: true,
      },
    ]);
    await expect(page.locator('td[data-label="Last used (UTC)"]').innerText()).resolves.toBe('Never');
    await checkPage(page, 'account-passkeys');

    // Signed out, the passkey alone signs in: a new session.
    const sessionCookie = async () => (await context.cookies()).find((cookie) => cookie.name === '__Host-lvs_operator')?.value;
    const before = await sessionCookie();
    await signOut(page);
    await checkPage(page, 'sign-in');
    let sent: Promise<{ body: string; cookie: string }> | null = null;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/operator/sign-in/passkey')
        sent = request.allHeaders().then((headers) => ({ body: request.postData() ?? '', cookie: headers.cookie ?? '' }));
    });
    await expect(usePasskey(page)).resolves.toEqual({ url: `${operatorUrl}/operator/partners`, alert: null });
    const after = await sessionCookie();
    expect(after).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    await page.goto(`${operatorUrl}/operator/account`);
    await expect(page.locator('td[data-label="Last used (UTC)"]').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

    // The same answer sent again finds its challenge spent: 401, in the sign-in page's words.
    if (sent === null) throw new Error('The passkey form was not seen');
    const replay = await (sent as Promise<{ body: string; cookie: string }>);
    const again = await fetch(`${operatorUrl}/operator/sign-in/passkey`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: replay.cookie, origin: operatorUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: replay.body,
    });
    expect([again.status, /role="alert">([^<]*)</.exec(await again.text())?.[1]]).toEqual([401, WRONG_PASSKEY]);

    // Disabled by the admin command: the session ends at once, and the passkey signs no one in; enabled, it does again.
    const disabled = await runAdminCli(cliEnv, 'disable-operator', '--email', 'pia@operators.example', '--reason', 'Laptop reported stolen');
    expect([disabled.status, JSON.parse(disabled.stdout)]).toEqual([0, { email: 'pia@operators.example', changed: true }]);
    const ended = await fetch(`${operatorUrl}/operator/partners`, { redirect: 'manual', headers: { cookie: `__Host-lvs_operator=${after}` } });
    expect([ended.status, ended.headers.get('location')]).toEqual([303, '/operator/sign-in']);
    await expect(usePasskey(page)).resolves.toEqual({ url: `${operatorUrl}/operator/sign-in/passkey`, alert: WRONG_PASSKEY });
    const enabled = await runAdminCli(cliEnv, 'enable-operator', '--email', 'pia@operators.example', '--reason', 'Laptop found');
    expect(enabled.status).toBe(0);
    await expect(usePasskey(page)).resolves.toEqual({ url: `${operatorUrl}/operator/partners`, alert: null });

    // Removed from Your account, it signs no one in, though the authenticator still offers it.
    await page.goto(`${operatorUrl}/operator/account`);
    await page.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await page.getByText('You have no passkeys.').waitFor();
    await expect(credentials()).resolves.toHaveLength(1);
    await expect(t.db.query('SELECT count(*)::int AS n FROM operator_passkeys').then((result) => result.rows)).resolves.toEqual([{ n: 0 }]);
    await signOut(page);
    await expect(usePasskey(page)).resolves.toEqual({ url: `${operatorUrl}/operator/sign-in/passkey`, alert: WRONG_PASSKEY });

    // The operators' log: the invitation, the passkey's addition and removal by Pia herself, the command's two changes.
    const cli = expect.stringMatching(/.+/);
    const email = { old: 'pia@operators.example', new: 'pia@operators.example' };
    expect(await log()).toEqual([
      {
        action: 'operator.invited',
        actor_type: 'cli',
        actor_id: cli,
        target_id: piaId,
        reason: null,
        changes: { email: { old: null, new: 'pia@operators.example' }, role: { old: null, new: 'support' } },
      },
      {
        action: 'operator.factor_added',
        actor_type: 'operator',
        actor_id: piaId,
        target_id: piaId,
        reason: null,
        changes: { factor: { old: null, new: 'passkey' }, name: { old: null, new: 'Work laptop' } },
      },
      {
        action: 'operator.disabled',
        actor_type: 'cli',
        actor_id: cli,
        target_id: piaId,
        reason: 'Laptop reported stolen',
        changes: { email, status: { old: 'active', new: 'disabled' } },
      },
      {
        action: 'operator.enabled',
        actor_type: 'cli',
        actor_id: cli,
        target_id: piaId,
        reason: 'Laptop found',
        changes: { email, status: { old: 'disabled', new: 'active' } },
      },
      {
        action: 'operator.factor_removed',
        actor_type: 'operator',
        actor_id: piaId,
        target_id: piaId,
        reason: null,
        changes: { factor: { old: 'passkey', new: null }, name: { old: 'Work laptop', new: null } },
      },
    ]);
    // Nothing of the credential in the log.
    expect(JSON.stringify(await log()).includes(Buffer.from(made.credentialId, 'base64').toString('base64url'))).toBe(false);
    await context.close();
  }, 120_000);
});
