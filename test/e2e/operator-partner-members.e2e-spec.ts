import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { verify } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { codeAt, joinAsMember } from '../support/member-join';
import { joinAsOperator, startOperatorApi } from '../support/operator-join';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber } from '../support/until';

const OPERATOR_SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const CONSOLE_SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const OPERATOR_PASSWORD = 'copper lantern orchard 58 drift';
const MEMBER_PASSWORD = 'amber harbour pebble violin';
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message };
/** An invitation's link: PUBLIC_BASE_URL is not set, so it names localhost and the process's PORT (0 for the API here). */
const JOIN_LINK = /^http:\/\/localhost:\d+\/console\/join\/[A-Za-z0-9_-]{43}$/;
/** The admin command's actor: the operating-system user running it. */
const CLI = { type: 'cli', id: userInfo().username };

/**
 * The operator console's members and limits (issue 42): a partner made with its first owner's invitation (console and
 * command), found by a member's address, a member's second factor reset (the member sets a new one at the next
 * sign-in), and a partner's own live lookup limit. One API process serves both consoles; no worker runs, so every
 * live lookup admitted stays waiting for the register and holds its place in its partner's bound.
 */
describe('the operator console: members and limits', () => {
  let t: TestApp;
  let api: ApiProcess;
  let operatorUrl: string;
  let cliEnv: Record<string, string>;
  let browser: Browser;
  let operator: Page;
  let operatorId: string;

  beforeAll(async () => {
    // A live lookup answers 202 after 300 ms of waiting for a register answer that never comes.
    t = await startTestApp({ env: { VERIFY_TIMEOUT_MS: '300' } });
    ({ api, operatorUrl, cliEnv } = await startOperatorApi(t.env));
    browser = await launchChromium();
    operator = (await openProfile(browser)).page;
    await joinAsOperator(operator, { operatorUrl, cliEnv }, { email: 'olu@operators.example', role: 'operator', password: OPERATOR_PASSWORD });
    operatorId = (await t.db.query<{ id: string }>(`SELECT id FROM operators WHERE email = 'olu@operators.example'`)).rows[0].id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await t.close();
  });

  const checkOperatorPage = (name: string) => checkPageAt(operator, OPERATOR_SCREENSHOTS, name);
  const activityOf = async (userId: string) =>
    (
      await t.db.query(
        `SELECT json_build_object('type', actor_type, 'id', actor_id) AS actor, action, target_type AS "targetType", target_id AS "targetId", changes
           FROM activity_events WHERE user_id = $1 ORDER BY seq`,
        [userId],
      )
    ).rows;
  const operatorLogOf = async (userId: string) =>
    (
      await t.db.query(
        `SELECT actor_type AS "actorType", actor_id AS "actorId", source, action, partner_name AS "partnerName", target_type AS "targetType",
                target_id AS "targetId", reason, changes
           FROM operator_actions WHERE user_id = $1 ORDER BY occurred_at, id`,
        [userId],
      )
    ).rows;
  const partnerNamed = async (name: string) =>
    (await t.db.query<{ id: string; monthly_quota: number | null }>('SELECT id, monthly_quota FROM users WHERE name = $1', [name])).rows;

  /** The partner made in the first test, and its owner, whom the second signs in and resets. */
  let acme: { userId: string; memberId: string; secret: string };

  it('makes a partner with its first owner’s invitation, shown once, from the console and from the command', async () => {
    await operator.goto(`${operatorUrl}/operator/partners`);
    await operator.getByLabel('Partner name').fill('Acme Door Supervision');
    await operator.getByLabel("Owner's e-mail address").fill('Owen.Owner@Acme.example');
    await operator.getByLabel('Plan quota (blank: unlimited)').fill('250');
    await operator.locator('#partner-reason').fill('Contract signed, ticket 5120');
    await operator.getByRole('button', { name: 'Make the partner' }).click();
    await operator.getByRole('heading', { name: "The owner's invitation" }).waitFor();
    const link = (await operator.locator('#invitation-link').innerText()).trim();
    expect(link).toMatch(JOIN_LINK);
    await checkOperatorPage('partner-invitation');
    const [partner] = await partnerNamed('Acme Door Supervision');
    expect(partner.monthly_quota).toBe(250);
    expect(operator.url()).toBe(`${operatorUrl}/operator/partners`);
    // Shown once: the partner's page read again has no link.
    await operator.goto(`${operatorUrl}/operator/partners/${partner.id}`);
    await expect(operator.locator('#invitation-link').count()).resolves.toBe(0);

    const { rows: members } = await t.db.query<{ id: string; email: string; role: string; status: string }>(
      'SELECT id, email, role, status FROM members WHERE user_id = $1',
      [partner.id],
    );
    expect(members).toEqual([{ id: expect.any(String), email: 'owen.owner@acme.example', role: 'owner', status: 'invited' }]);
    const invited = { email: { old: null, new: 'owen.owner@acme.example' }, role: { old: null, new: 'owner' } };
    expect(await activityOf(partner.id)).toEqual([
      { actor: { type: 'operator', id: operatorId }, action: 'member.invited', targetType: 'member', targetId: members[0].id, changes: invited },
    ]);
    expect(await operatorLogOf(partner.id)).toEqual([
      {
        actorType: 'operator',
        actorId: operatorId,
        source: '127.0.0.1',
        action: 'account.created',
        partnerName: 'Acme Door Supervision',
        targetType: 'account',
        targetId: partner.id,
        reason: 'Contract signed, ticket 5120',
        changes: { name: { old: null, new: 'Acme Door Supervision' }, monthlyQuota: { old: null, new: 250 }, ...invited },
      },
    ]);

    // The owner joins through the link on the partner console.
    const owner = await openProfile(browser);
    const joined = await joinAsMember(owner.page, api.baseUrl, link, { name: 'Owen Owner', password: MEMBER_PASSWORD, nowMs: Date.now });
    acme = { userId: partner.id, memberId: members[0].id, secret: joined.secret };
    await owner.context.close();

    // The command makes one the same way: its output is the partner's id and the link, once.
    const cli = await runAdminCli(cliEnv, 'create-partner', '--name', 'Beacon Events', '--email', 'bea@beacon.example', '--reason', 'Pilot');
    const [beacon] = await partnerNamed('Beacon Events');
    const printed = JSON.parse(cli.stdout) as { ownerInvitation: string };
    expect(printed.ownerInvitation).toMatch(JOIN_LINK);
    expect([cli.status, cli.stderr, cli.stdout]).toEqual([
      0,
      '',
      `${JSON.stringify({ userId: beacon.id, ownerInvitation: printed.ownerInvitation }, null, 2)}\n`,
    ]);
    expect(beacon.monthly_quota).toBeNull();
    expect(await operatorLogOf(beacon.id)).toEqual([
      expect.objectContaining({ actorType: 'cli', actorId: CLI.id, source: hostname(), action: 'account.created', reason: 'Pilot' }),
    ]);
    expect((await activityOf(beacon.id)).map((event: { actor: unknown; action: string }) => [event.actor, event.action])).toEqual([
      [{ type: 'cli', id: CLI.id }, 'member.invited'],
    ]);

    // A bad address makes nothing.
    const refused = await runAdminCli(cliEnv, 'create-partner', '--name', 'Nobody Ltd', '--email', 'nobody@', '--reason', 'x');
    expect([refused.status, refused.stdout, (await partnerNamed('Nobody Ltd')).length]).toEqual([2, '', 0]);
  }, 60_000);

  it('finds a partner by a member’s address, lists its members, and resets a member’s second factor: sessions end, a new factor at the next sign-in', async () => {
    // The owner is signed in on the partner console.
    const owner = await openProfile(browser);
    await owner.page.goto(`${api.baseUrl}/console/sign-in`);
    const signIn = async () => {
      await owner.page.getByLabel('E-mail address').fill('owen.owner@acme.example');
      await owner.page.getByLabel('Password').fill(MEMBER_PASSWORD);
      await owner.page.getByRole('button', { name: 'Continue' }).click();
      await owner.page.waitForURL(`${api.baseUrl}/console/sign-in/code`);
    };
    await signIn();
    // A code of the next step: the one the join used is spent.
    await owner.page.getByLabel(/Code from your authenticator app/).fill(codeAt(acme.secret, Date.now() + 30_000));
    await owner.page.getByRole('button', { name: 'Sign in' }).click();
    await owner.page.waitForURL(`${api.baseUrl}/console/overview`);

    // Found by the member's address (any case), alone, with its one member.
    await operator.goto(`${operatorUrl}/operator/partners?q=${encodeURIComponent('OWEN.owner@acme.example')}`);
    await expect(operator.locator('tr[data-partner-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-partner-id')))).resolves.toEqual([
      acme.userId,
    ]);
    await expect(operator.locator(`tr[data-partner-id="${acme.userId}"] td[data-label="Members"]`).innerText()).resolves.toBe('1');
    await checkOperatorPage('partners-by-member');
    await operator.getByRole('link', { name: 'Acme Door Supervision' }).click();
    const row = operator.locator(`tr[data-member-id="${acme.memberId}"]`);
    const cells = async () => (await row.locator('td').allInnerTexts()).slice(0, 5).map((cell) => cell.trim());
    const [before] = await t.db
      .query<{ at: Date }>('SELECT last_sign_in_at AS at FROM members WHERE id = $1', [acme.memberId])
      .then((result) => result.rows);
    const signedInAt = before.at.toISOString().slice(0, 16).replace('T', ' ');
    expect(await cells()).toEqual(['Owen Owner owen.owner@acme.example', 'owner', 'active', signedInAt, 'TOTP']);
    await checkOperatorPage('partner-members');

    const eventsBefore = (await activityOf(acme.userId)).length;
    await operator.locator(`#reset-reason-${acme.memberId}`).fill('Lost phone, identity checked on call 7781');
    await operator.getByRole('button', { name: 'Reset second factor of owen.owner@acme.example' }).click();
    await expect(row.locator('td[data-label="Second factor"]').innerText()).resolves.toBe('None');
    const { rows: stored } = await t.db.query('SELECT totp_secret, totp_pending_secret, recovery_code_hashes FROM members WHERE id = $1', [acme.memberId]);
    expect(stored).toEqual([{ totp_secret: null, totp_pending_secret: null, recovery_code_hashes: [] }]);
    const events = (await activityOf(acme.userId)).slice(eventsBefore);
    const byOperator = { type: 'operator', id: operatorId };
    expect(events).toEqual([
      { actor: byOperator, action: 'member.factor_reset', targetType: 'member', targetId: acme.memberId, changes: { factor: { old: 'totp', new: null } } },
      // Both of the owner's sessions: the one the join started (its browser closed, the session not ended) and this one.
      { actor: byOperator, action: 'session.ended', targetType: 'session', targetId: expect.stringMatching(/^[0-9a-f]{16}$/), changes: {} },
      { actor: byOperator, action: 'session.ended', targetType: 'session', targetId: expect.stringMatching(/^[0-9a-f]{16}$/), changes: {} },
    ]);
    expect(events[1].targetId).not.toBe(events[2].targetId);
    expect((await operatorLogOf(acme.userId)).slice(1)).toEqual([
      {
        actorType: 'operator',
        actorId: operatorId,
        source: '127.0.0.1',
        action: 'member.factor_reset',
        partnerName: 'Acme Door Supervision',
        targetType: 'member',
        targetId: acme.memberId,
        reason: 'Lost phone, identity checked on call 7781',
        changes: { factor: { old: 'totp', new: null } },
      },
    ]);

    // The owner's session ended at once; the old codes no longer work; after the password, a new factor is set up.
    const overview = await fetch(`${api.baseUrl}/console/overview`, {
      redirect: 'manual',
      headers: { cookie: (await owner.context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') },
    });
    expect([overview.status, overview.headers.get('location')]).toEqual([303, '/console/sign-in']);
    await owner.page.goto(`${api.baseUrl}/console/sign-in`);
    await signIn();
    const secret = (await owner.page.locator('#totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(secret).not.toBe(acme.secret);
    await checkPageAt(owner.page, CONSOLE_SCREENSHOTS, 'sign-in-new-factor');
    await owner.page.getByLabel('Six-digit code').fill(codeAt(acme.secret, Date.now()));
    await owner.page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await expect(owner.page.getByRole('alert').innerText()).resolves.toBe('That code is not right, or was used already.');
    // The same key is offered again until it is confirmed.
    await expect(owner.page.locator('#totp-secret').innerText()).resolves.toBe(secret);
    await owner.page.getByLabel('Six-digit code').fill(codeAt(secret, Date.now()));
    await owner.page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await owner.page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await expect(owner.page.locator('#recovery-codes li').count()).resolves.toBe(10);
    await owner.page.getByRole('link', { name: 'Continue to the console' }).click();
    await owner.page.waitForURL(`${api.baseUrl}/console/overview`);
    const byMember = { type: 'member', id: acme.memberId };
    expect(
      (await activityOf(acme.userId)).slice(eventsBefore + 3).map((event: { actor: unknown; action: string }) => [event.actor, event.action]),
    ).toEqual([
      [byMember, 'member.sign_in_failed'],
      [byMember, 'member.factor_reset'],
      [byMember, 'member.signed_in'],
    ]);

    // The command does the same by the member's address; a member it cannot find is a usage error.
    const cli = await runAdminCli(cliEnv, 'reset-factor', '--user', acme.userId, '--email', 'Owen.Owner@acme.example', '--reason', 'Second phone lost');
    expect([cli.status, cli.stderr, cli.stdout]).toEqual([
      0,
      '',
      `${JSON.stringify({ userId: acme.userId, memberId: acme.memberId, sessionsEnded: 1 }, null, 2)}\n`,
    ]);
    expect((await operatorLogOf(acme.userId)).slice(2)).toEqual([
      expect.objectContaining({ actorType: 'cli', actorId: CLI.id, action: 'member.factor_reset', targetId: acme.memberId, reason: 'Second phone lost' }),
    ]);
    const unknown = await runAdminCli(cliEnv, 'reset-factor', '--user', acme.userId, '--email', 'nobody@acme.example');
    expect([unknown.status, unknown.stdout, unknown.stderr]).toEqual([2, '', `No member nobody@acme.example of user ${acme.userId} who has joined\n`]);
    await owner.context.close();
  }, 60_000);

  it('bounds a partner’s live lookups by its own limit, set in the console and by the command, while another partner keeps the default', async () => {
    const bounded = await t.createKey({ name: 'Bounded Security' });
    const other = await t.createKey({ name: 'Other Security' });
    await operator.goto(`${operatorUrl}/operator/partners/${bounded.userId}`);

    // 0 is no limit a partner could work with: refused, nothing changed.
    await operator.locator('#live-lookup-limit-value').fill('0');
    await operator.locator('#live-lookup-limit-reason').fill('Probe');
    await operator.getByRole('button', { name: 'Set live lookup limit (waiting at once)' }).click();
    await expect(operator.getByRole('alert').innerText()).resolves.toBe('This limit is at least 1; leave it blank for the default. Nothing was changed.');
    await operator.locator('#live-lookup-limit-value').fill('1');
    await operator.locator('#live-lookup-limit-reason').fill('Flooding the register, ticket 6001');
    await operator.getByRole('button', { name: 'Set live lookup limit (waiting at once)' }).click();
    await expect(operator.locator('[data-figure="live-lookup-limit"]').innerText()).resolves.toBe('1 waiting at once');

    // One live lookup waits for the register (202, its place held); the second is refused, uncharged.
    const first = await verify(api.baseUrl, bounded.key, unknownNumber(4201, 0));
    expect(first.status).toBe(202);
    const second = await verify(api.baseUrl, bounded.key, unknownNumber(4201, 1));
    expect([second.status, second.body]).toEqual([503, UNAVAILABLE]);
    const charged = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1', [bounded.userId]);
    expect(charged.rows).toEqual([{ licence_number: unknownNumber(4201, 0) }]);
    // Another partner keeps USER_MAX_LIVE_LOOKUPS.
    const others = [await verify(api.baseUrl, other.key, unknownNumber(4202, 0)), await verify(api.baseUrl, other.key, unknownNumber(4202, 1))];
    expect(others.map((answer) => answer.status)).toEqual([202, 202]);

    // The command sets it back to the default, and the next live lookup is admitted at once (the change is announced).
    const cli = await runAdminCli(cliEnv, 'set-live-limit', bounded.userId, 'default', '--reason', 'Traffic back to normal');
    expect([cli.status, cli.stderr, cli.stdout]).toEqual([0, '', `${JSON.stringify({ userId: bounded.userId, liveLookupLimit: null }, null, 2)}\n`]);
    expect((await verify(api.baseUrl, bounded.key, unknownNumber(4201, 2))).status).toBe(202);

    const limits = await t.db.query(
      `SELECT actor_type AS type, actor_id AS id, changes FROM activity_events WHERE user_id = $1 AND action = 'account.limits_changed' ORDER BY seq`,
      [bounded.userId],
    );
    expect(limits.rows).toEqual([
      { type: 'operator', id: operatorId, changes: { liveLookupLimit: { old: null, new: 1 } } },
      { type: 'cli', id: CLI.id, changes: { liveLookupLimit: { old: 1, new: null } } },
    ]);
    expect(
      (await operatorLogOf(bounded.userId)).map((entry: { actorType: string; action: string; reason: string }) => [
        entry.actorType,
        entry.action,
        entry.reason,
      ]),
    ).toEqual([
      ['operator', 'account.limits_changed', 'Flooding the register, ticket 6001'],
      ['cli', 'account.limits_changed', 'Traffic back to normal'],
    ]);
  }, 60_000);
});
