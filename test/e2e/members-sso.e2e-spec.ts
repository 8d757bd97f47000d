import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { MembersService } from '../../src/members/members.service';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { ApiProcess } from '../support/api-process';
import { FormClient } from '../support/console-client';
import { codeAt, joinAsMember, joinByForm, MEMBER_PASSWORD } from '../support/member-join';
import { request as apiRequest } from '../support/http';
import { OpenIdProviderProcess } from '../support/openid-provider';
import { until } from '../support/until';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const FOUND = '1011001544208079';
const CLIENT_ID = 'licence-console';
const CLIENT_SECRET = 'provider-client-secret-5f1c9a7e';
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
const SSO_REQUIRED = 'Your organisation signs in with single sign-on only. Use “Sign in with single sign-on” below, with your work e-mail address.';
const NOT_ALLOWED = (role: string) => `Your role, ${role}, does not allow this. Nothing was done.`;

/**
 * Single sign-on of a partner's members (issue 41) against a real OpenID provider (oidc-provider, in a child
 * process on localhost while the console is at 127.0.0.1, so the provider is another site as in production): the
 * owner's Single sign-on page, the authorization code flow in Chromium through the provider's own login form,
 * members made on first sign-in, refusals, and password sign-in refused once single sign-on is required.
 */
describe('single sign-on of members', () => {
  let t: TestApp;
  let provider: OpenIdProviderProcess;
  let browser: Browser;

  beforeAll(async () => {
    // The provider is on loopback: a partner's issuer, like its webhook URLs, may be private only where this allows it.
    t = await startTestApp({
      withWorker: true,
      env: { VERIFY_TIMEOUT_MS: '1500', REGISTER_REQUEST_TIMEOUT_MS: '6000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    provider = await OpenIdProviderProcess.start({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${t.baseUrl}/console/sign-in/sso/callback`,
      accounts: {
        'casey@acme.example': { email: 'Casey@acme.example', email_verified: true, name: 'Casey Compliance' },
        'uma@acme.example': { email: 'uma@acme.example', email_verified: false },
        'mallory@acme.example': { email: 'mallory@elsewhere.example', email_verified: true },
      },
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await t?.close();
  });

  const now = () => t.clock.now().getTime();
  const checkPage = (page: Page, name: string) => checkPageAt(page, SCREENSHOTS, name);
  const newPage = async () => (await openProfile(browser)).page;

  /** A member invited by the operator's command and joined with a password and TOTP, through forms. */
  async function joined(userId: string, email: string, role: 'owner' | 'admin' | 'developer' | 'viewer') {
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, userId, email, role);
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    const { secret } = await joinByForm(client, invited.link, now);
    return { client, secret, link: invited.link };
  }

  /**
   * Single sign-on in the browser: the address typed on the sign-in page, then `login` on the provider's form. The
   * page ends on the console's overview, or on the sign-in page with a refusal; the callback's status is answered.
   */
  async function signInWithSso(page: Page, typed: string, login: string): Promise<{ callbackStatus: number; callbackUrl: string }> {
    await page.goto(`${t.baseUrl}/console/sign-in`);
    await page.getByLabel('Work address for single sign-on').fill(typed);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    const callback = page.waitForResponse((response) => response.url().startsWith(`${t.baseUrl}/console/sign-in/sso/callback`));
    await provider.logIn(page, login);
    const answer = await callback;
    if (answer.status() === 200) await page.waitForURL(`${t.baseUrl}/console/overview`);
    return { callbackStatus: answer.status(), callbackUrl: answer.url() };
  }

  async function saveSso(client: FormClient, fields: Record<string, string>): Promise<Response> {
    const _csrf = await client.tokenOf('/console/single-sign-on');
    return client.send('POST', '/console/single-sign-on', { _csrf, clientSecret: '', newMemberRole: 'viewer', ...fields });
  }

  const alertOf = async (answer: Response) => [answer.status, /role="alert">([^<]*)</.exec(await answer.text())?.[1] ?? null];

  it('lets an owner set it up, makes a member of an allowed domain at first sign-in, and refuses other domains, unverified addresses and other organisations', async () => {
    const acme = await t.createKey({ name: 'Acme' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, acme.userId, 'olivia@acme.example', 'owner');
    if ('error' in invited) throw new Error(invited.error);
    const owner = await newPage();
    await joinAsMember(owner, t.baseUrl, invited.link, { name: 'Olivia Owner', password: MEMBER_PASSWORD, nowMs: now });

    // The owner's page: the redirect URI to register, then the provider, client, domains and role.
    await owner.getByRole('link', { name: 'Single sign-on' }).click();
    await expect(owner.locator('#redirect-uri').innerText()).resolves.toBe(`${t.baseUrl}/console/sign-in/sso/callback`);
    await owner.getByLabel('Issuer URL').fill(provider.issuer);
    await owner.getByLabel('Client id').fill(CLIENT_ID);
    await owner.getByLabel('Client secret').fill(CLIENT_SECRET);
    await owner.getByLabel('E-mail domains').fill('Acme.example, @acme.co.uk');
    await owner.getByLabel('Role of a person signing in for the first time').selectOption('compliance');
    await owner.getByRole('button', { name: 'Save' }).click();
    await expect(owner.getByRole('status').innerText()).resolves.toBe('Single sign-on is saved.');
    // The secret is never shown back, and is stored sealed.
    expect(await owner.content()).not.toContain(CLIENT_SECRET);
    await expect(owner.getByLabel('E-mail domains').inputValue()).resolves.toBe('acme.example, acme.co.uk');
    await checkPage(owner, 'single-sign-on');
    const [stored] = (await t.db.query<{ client_secret: string }>('SELECT client_secret FROM member_sso WHERE user_id = $1', [acme.userId])).rows;
    expect(stored.client_secret).not.toContain(CLIENT_SECRET);

    // Another organisation cannot claim one of those domains.
    const other = await t.createKey({ name: 'Other' });
    const otherOwner = await joined(other.userId, 'owen@other.example', 'owner');
    expect(
      await alertOf(await saveSso(otherOwner.client, { issuer: provider.issuer, clientId: 'x', clientSecret: 'y', domains: 'other.example, ACME.co.uk' })),
    ).toEqual([400, 'acme.co.uk is already used for single sign-on by another organisation. Ask support if the domain is yours.']);
    expect(
      await alertOf(
        await saveSso(otherOwner.client, { issuer: provider.issuer, clientId: 'x', clientSecret: 'y', domains: 'other.example', newMemberRole: 'owner' }),
      ),
    ).toEqual([400, 'Single sign-on cannot make anyone an owner: choose another role.']);

    // The sign-in page finds the organisation by the address's domain, and the provider signs Casey in: a new
    // compliance member, who checks a licence in their own name.
    const casey = await newPage();
    await casey.goto(`${t.baseUrl}/console/sign-in`);
    await checkPage(casey, 'sign-in');
    const first = await signInWithSso(casey, 'casey@acme.example', 'casey@acme.example');
    expect(first.callbackStatus).toBe(200);
    await expect(casey.getByRole('link', { name: 'Single sign-on' }).count()).resolves.toBe(0);
    const [member] = (
      await t.db.query<{ id: string; role: string; status: string; display_name: string; password_hash: string | null }>(
        `SELECT id, role, status, display_name, password_hash FROM members WHERE user_id = $1 AND email = 'casey@acme.example'`,
        [acme.userId],
      )
    ).rows;
    expect(member).toEqual({ id: member.id, role: 'compliance', status: 'active', display_name: 'Casey Compliance', password_hash: null });
    await casey.getByRole('link', { name: 'Verify', exact: true }).click();
    await casey.getByLabel('Licence number').fill(FOUND);
    await casey.getByRole('button', { name: 'Verify', exact: true }).click();
    await casey.getByRole('heading', { name: `Result for ${FOUND}` }).waitFor();
    type Listed = { verifications: Record<string, unknown>[] };
    const listed = await until(
      async () => (await apiRequest(t.baseUrl, 'GET', `/v1/verifications?memberId=${member.id}`, { headers: { 'x-api-key': acme.key } })).body as Listed,
      (body) => body.verifications.length === 1,
      10_000,
    );
    expect(listed.verifications[0]).toMatchObject({ memberId: member.id, keyId: null, channel: 'console', licenceNumber: FOUND });
    // A compliance member meets the forbidden page on Single sign-on.
    const forbidden = await casey.goto(`${t.baseUrl}/console/single-sign-on`);
    expect([forbidden?.status(), await casey.getByRole('alert').innerText()]).toEqual([403, NOT_ALLOWED('compliance')]);

    // The callback works once: the same state again is refused.
    const replay = await new FormClient(t.baseUrl).send('GET', new URL(first.callbackUrl).pathname + new URL(first.callbackUrl).search);
    expect(await alertOf(replay)).toEqual([403, 'This single sign-on has expired or was used already. Start again.']);

    // The provider vouches for another domain, or for an address it has not verified: refused, nobody made.
    const refusedPage = await newPage();
    const elsewhere = await signInWithSso(refusedPage, 'mallory@acme.example', 'mallory@acme.example');
    expect([elsewhere.callbackStatus, await refusedPage.getByRole('alert').innerText()]).toEqual([
      403,
      'Your e-mail domain is not one your organisation allows for single sign-on here.',
    ]);
    // (A browser of its own: the provider's session would sign Mallory in again without its form.)
    const unverifiedPage = await newPage();
    const unverified = await signInWithSso(unverifiedPage, 'uma@acme.example', 'uma@acme.example');
    expect([unverified.callbackStatus, await unverifiedPage.getByRole('alert').innerText()]).toEqual([
      403,
      'Your identity provider has not verified your e-mail address, so it cannot sign you in here.',
    ]);
    // A domain no organisation signs in with never reaches a provider.
    await refusedPage.goto(`${t.baseUrl}/console/sign-in`);
    await refusedPage.getByLabel('Work address for single sign-on').fill('someone@nowhere.example');
    await refusedPage.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await expect(refusedPage.getByRole('alert').innerText()).resolves.toBe(
      'No organisation signs in with single sign-on for nowhere.example. Sign in with your password.',
    );
    // Where private addresses are not allowed, the service never asks a partner's issuer inside the network: the
    // provider on loopback, which the service above reached, is refused at the connection.
    const publicOnly = await ApiProcess.start({ ...t.env, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    try {
      const asking = new FormClient(publicOnly.baseUrl);
      const _csrf = await asking.tokenOf('/console/sign-in');
      const refusedStart = await asking.send('POST', '/console/sign-in/sso', { _csrf, email: 'casey@acme.example' });
      expect(refusedStart.status).toBe(400);
      expect(await refusedStart.text()).toContain(`The identity provider at ${provider.issuer} could not be reached or did not describe itself`);
    } finally {
      await publicOnly.stop();
    }
    const people = await t.db.query<{ email: string }>('SELECT email FROM members WHERE user_id = $1 ORDER BY invited_at', [acme.userId]);
    expect(people.rows.map((row) => row.email)).toEqual(['olivia@acme.example', 'casey@acme.example']);

    // Disabled by the owner, Casey is refused.
    await owner.goto(`${t.baseUrl}/console/members`);
    await owner
      .locator('tr', { hasText: 'casey@acme.example' })
      .getByRole('button', { name: /^Disable/ })
      .click();
    await owner.waitForURL(`${t.baseUrl}/console/members`);
    await expect(owner.locator('tr', { hasText: 'casey@acme.example' }).locator('td[data-label="Status"]').innerText()).resolves.toBe('disabled');
    const disabledPage = await newPage();
    const disabled = await signInWithSso(disabledPage, 'casey@acme.example', 'casey@acme.example');
    expect([disabled.callbackStatus, await disabledPage.getByRole('alert').innerText()]).toEqual([
      403,
      'Your membership of this organisation is disabled or was removed. Ask an owner or admin of your organisation.',
    ]);

    const events = await t.db.query<{ action: string; actor_type: string; actor_id: string | null; changes: unknown }>(
      `SELECT action, actor_type, actor_id, changes FROM activity_events
        WHERE user_id = $1 AND action IN ('sso.changed', 'member.joined', 'member.signed_in') ORDER BY seq`,
      [acme.userId],
    );
    const [ownerRow] = (await t.db.query<{ id: string }>(`SELECT id FROM members WHERE email = 'olivia@acme.example'`)).rows;
    expect(events.rows).toEqual([
      { action: 'member.joined', actor_type: 'member', actor_id: ownerRow.id, changes: {} },
      { action: 'member.signed_in', actor_type: 'member', actor_id: ownerRow.id, changes: {} },
      {
        action: 'sso.changed',
        actor_type: 'member',
        actor_id: ownerRow.id,
        changes: {
          issuer: { old: null, new: provider.issuer },
          clientId: { old: null, new: CLIENT_ID },
          clientSecret: { old: null, new: 'set' },
          domains: { old: null, new: ['acme.example', 'acme.co.uk'] },
          newMemberRole: { old: null, new: 'compliance' },
          required: { old: null, new: false },
        },
      },
      { action: 'member.joined', actor_type: 'member', actor_id: member.id, changes: { via: { old: null, new: 'sso' } } },
      { action: 'member.signed_in', actor_type: 'member', actor_id: member.id, changes: {} },
    ]);
    expect(JSON.stringify(events.rows)).not.toContain(CLIENT_SECRET);
  });

  it('refuses password sign-in to the members of an organisation that requires it, who sign in through their provider; others keep their passwords', async () => {
    const beta = await t.createKey({ name: 'Beta' });
    const admin = await joined(beta.userId, 'ada@beta.example', 'admin');
    const developer = await joined(beta.userId, 'dev@beta.example', 'developer');
    const viewer = await joined(beta.userId, 'vic@beta.example', 'viewer');
    for (const [who, role] of [
      [developer, 'developer'],
      [viewer, 'viewer'],
    ] as const) {
      expect(await alertOf(await who.client.send('GET', '/console/single-sign-on'))).toEqual([403, NOT_ALLOWED(role)]);
    }
    const settings = { issuer: provider.issuer, clientId: CLIENT_ID, domains: 'beta.example' };
    expect((await saveSso(admin.client, { ...settings, clientSecret: CLIENT_SECRET })).status).toBe(200);
    // Required, the secret left blank (kept): the change names only what changed.
    expect((await saveSso(admin.client, { ...settings, required: 'on' })).status).toBe(200);

    const signInAnswer = async (email: string) => {
      const client = new FormClient(t.baseUrl);
      const _csrf = await client.tokenOf('/console/sign-in');
      return client.send('POST', '/console/sign-in', { _csrf, email, password: MEMBER_PASSWORD });
    };
    expect(await alertOf(await signInAnswer('dev@beta.example'))).toEqual([403, SSO_REQUIRED]);
    // The admin who required it is refused too; a wrong password is 401 as before, so the refusal tells only someone
    // who knows the password.
    expect(await alertOf(await signInAnswer('ada@beta.example'))).toEqual([403, SSO_REQUIRED]);
    const wrong = new FormClient(t.baseUrl);
    const token = await wrong.tokenOf('/console/sign-in');
    expect((await wrong.send('POST', '/console/sign-in', { _csrf: token, email: 'ada@beta.example', password: 'not it at all' })).status).toBe(401);

    // The developer signs in through the provider: the member they are, with no new member made.
    const page = await newPage();
    expect((await signInWithSso(page, 'dev@beta.example', 'dev@beta.example')).callbackStatus).toBe(200);

    // A member of an organisation without the requirement still signs in with password and code.
    const gamma = await t.createKey({ name: 'Gamma' });
    const gary = await joined(gamma.userId, 'gary@gamma.example', 'viewer');
    t.clock.travelTo(new Date(now() + 30_000));
    try {
      const client = new FormClient(t.baseUrl);
      const _csrf = await client.tokenOf('/console/sign-in');
      const password = await client.send('POST', '/console/sign-in', { _csrf, email: 'gary@gamma.example', password: MEMBER_PASSWORD });
      expect([password.status, password.headers.get('location')]).toEqual([303, '/console/sign-in/code']);
      const code = await client.send('POST', '/console/sign-in/code', { _csrf, code: codeAt(gary.secret, now()) });
      expect([code.status, code.headers.get('location')]).toEqual([303, '/console/overview']);
    } finally {
      t.clock.set(null);
    }

    const [developerRow] = (await t.db.query<{ id: string }>(`SELECT id FROM members WHERE email = 'dev@beta.example'`)).rows;
    const events = await t.db.query<{ action: string; actor_id: string; changes: unknown }>(
      `SELECT action, actor_id, changes FROM activity_events WHERE user_id = $1 AND action IN ('sso.changed', 'member.joined', 'member.signed_in') ORDER BY seq`,
      [beta.userId],
    );
    expect(events.rows.slice(6).map(({ action, changes }) => [action, action === 'sso.changed' ? changes : null])).toEqual([
      ['sso.changed', expect.objectContaining({ clientSecret: { old: null, new: 'set' } })],
      ['sso.changed', { required: { old: false, new: true } }],
      ['member.signed_in', null],
    ]);
    expect(events.rows[events.rows.length - 1].actor_id).toBe(developerRow.id);
    const members = await t.db.query('SELECT count(*)::int AS n FROM members WHERE user_id = $1', [beta.userId]);
    expect(members.rows[0]).toEqual({ n: 3 });
  });
});
