import { hostname } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { runAdminCli } from '../support/admin-cli';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { freePort } from '../support/free-port';
import { OpenIdProviderProcess } from '../support/openid-provider';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const CLIENT_ID = 'licence-operators';
const CLIENT_SECRET = 'operators-client-secret-3b8e1d';

/**
 * Operators' single sign-on (issue 42, OPERATOR_OIDC_*) against a real OpenID provider on localhost (another site
 * than the operators' listener at 127.0.0.1): a new operator is made with OPERATOR_OIDC_ROLE and logged in the
 * operators' log as invited ones are, an invited one keeps their role, a disabled one is refused, and another domain
 * is refused before and after the provider.
 */
describe('single sign-on of operators', () => {
  let t: TestApp;
  let provider: OpenIdProviderProcess;
  let api: ApiProcess;
  let operatorUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    const port = await freePort();
    operatorUrl = `http://127.0.0.1:${port}`;
    provider = await OpenIdProviderProcess.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${operatorUrl}/operator/sign-in/sso/callback`,
      accounts: {
        'oona@lvs.example': { email: 'oona@lvs.example', email_verified: true, name: 'Oona Ops' },
        'eve@lvs.example': { email: 'eve@elsewhere.example', email_verified: true },
      },
    });
    api = await ApiProcess.start({
      ...t.env,
      OPERATOR_PORT: String(port),
      OPERATOR_HOST: '127.0.0.1',
      OPERATOR_OIDC_ISSUER: provider.issuer,
      OPERATOR_OIDC_CLIENT_ID: CLIENT_ID,
      OPERATOR_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OPERATOR_OIDC_DOMAINS: 'lvs.example',
      OPERATOR_OIDC_ROLE: 'support',
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await provider?.close();
    await t?.close();
  });

  const newPage = async () => (await openProfile(browser)).page;

  /** Single sign-on in a browser of its own; the callback's status, and the page where it ended. */
  async function signIn(login: string): Promise<{ status: number; page: Page }> {
    const page = await newPage();
    await page.goto(`${operatorUrl}/operator/sign-in`);
    await page.getByLabel('Work address for single sign-on').fill(login);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    const callback = page.waitForResponse((response) => response.url().startsWith(`${operatorUrl}/operator/sign-in/sso/callback`));
    await provider.logIn(page, login);
    const status = (await callback).status();
    if (status === 200) await page.waitForURL(`${operatorUrl}/operator/partners`);
    return { status, page };
  }

  const operators = async () =>
    (await t.db.query<{ email: string; role: string; sso: boolean }>('SELECT email, role, sso_joined_at IS NOT NULL AS sso FROM operators ORDER BY email'))
      .rows;

  it('makes a new operator of an allowed domain with OPERATOR_OIDC_ROLE, keeps an invited one’s role, and refuses other domains', async () => {
    const page = await newPage();
    await page.goto(`${operatorUrl}/operator/sign-in`);
    await checkPageAt(page, SCREENSHOTS, 'sign-in-sso');

    const oona = await signIn('oona@lvs.example');
    expect(oona.status).toBe(200);
    await expect(oona.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Partners');

    const cliEnv = { ...t.env, OPERATOR_PORT: new URL(operatorUrl).port };
    const invited = await runAdminCli(cliEnv, 'invite-operator', '--email', 'ivan@lvs.example', '--name', 'Ivan Invited', '--role', 'operator');
    expect(invited.status).toBe(0);
    expect((await signIn('ivan@lvs.example')).status).toBe(200);

    // Another domain: refused on the sign-in page before any provider, and when the provider vouches for one.
    const before = await newPage();
    await before.goto(`${operatorUrl}/operator/sign-in`);
    await before.getByLabel('Work address for single sign-on').fill('mallory@elsewhere.example');
    await before.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await expect(before.getByRole('alert').innerText()).resolves.toBe(
      'That e-mail domain does not sign in with single sign-on here. Sign in with your password.',
    );
    const eve = await signIn('eve@lvs.example');
    expect([eve.status, await eve.page.getByRole('alert').innerText()]).toEqual([
      403,
      'Your e-mail domain is not one your organisation allows for single sign-on here.',
    ]);

    expect(await operators()).toEqual([
      { email: 'ivan@lvs.example', role: 'operator', sso: true },
      { email: 'oona@lvs.example', role: 'support', sso: true },
    ]);
    expect(api.log).not.toContain(CLIENT_SECRET);

    // The operators' log: Oona made by single sign-on (by herself, from her address, naming the provider), Ivan invited
    // by the command; his first single sign-on made no one.
    const { rows: ids } = await t.db.query<{ id: string }>(`SELECT id FROM operators WHERE email = 'oona@lvs.example'`);
    const { rows: log } = await t.db.query(
      `SELECT action, actor_type, actor_id, source, target_id, reason, changes FROM operator_actions ORDER BY occurred_at, id`,
    );
    expect(log).toEqual([
      {
        action: 'operator.created_by_sso',
        actor_type: 'operator',
        actor_id: ids[0].id,
        source: '127.0.0.1',
        target_id: ids[0].id,
        reason: null,
        changes: {
          email: { old: null, new: 'oona@lvs.example' },
          role: { old: null, new: 'support' },
          issuer: { old: null, new: provider.issuer.replace(/\/+$/, '') },
        },
      },
      expect.objectContaining({ action: 'operator.invited', actor_type: 'cli', source: hostname(), reason: null }),
    ]);

    // Disabled, single sign-on lets her in no more, though the provider vouches for her.
    const disabled = await runAdminCli(cliEnv, 'disable-operator', '--email', 'oona@lvs.example', '--reason', 'Moved teams');
    expect(disabled.status).toBe(0);
    const refused = await signIn('oona@lvs.example');
    expect([refused.status, await refused.page.getByRole('alert').innerText()]).toEqual([
      403,
      'Your operator account is disabled. Ask an operator to enable it.',
    ]);
  });
});
