import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { MembersService } from '../../src/members/members.service';
import { checkPageAt as checkScreens, launchChromium } from '../support/browser';
import { FormClient } from '../support/console-client';
import { codeAt, joinByForm, MEMBER_PASSWORD } from '../support/member-join';
import { MailReceiver } from '../support/mail-receiver';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
const NEW_PASSWORD = 'copper lantern orbits quietly';
const DEAD_LINK = 'This reset link has expired or was used already. Ask for a new one on the sign-in page.';

/** The reset link of a message, its quoted-printable soft line breaks joined again. */
const linkIn = (raw: string) => /^(http:\/\/\S+\/console\/reset-password\/[A-Za-z0-9_-]{43})\r?$/m.exec(raw.replace(/=\r\n/g, ''))?.[1];

/**
 * Password reset by e-mail (issue 41), with a real SMTP server on loopback: the same page for any address, a link
 * that works once and for PASSWORD_RESET_MINUTES, the password policy, every session ended, the second factor still
 * asked for, and requests counted as sign-ins are.
 */
describe('password reset by e-mail', () => {
  let t: TestApp;
  let browser: Browser;
  let mail: MailReceiver;

  beforeAll(async () => {
    mail = await MailReceiver.start();
    t = await startTestApp({
      env: { TRUST_PROXY: 'loopback', SMTP_URL: mail.url, SMTP_FROM: 'Console <console@lvs.example>', PASSWORD_RESET_MINUTES: '30' },
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

  async function member(email: string): Promise<{ client: FormClient; secret: string; id: string; userId: string }> {
    const account = await t.createKey({ name: email });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, email, 'viewer');
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    const { secret } = await joinByForm(client, invited.link, now);
    const [{ id }] = (await t.db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [email])).rows;
    return { client, secret, id, userId: account.userId };
  }

  async function ask(client: FormClient, email: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string }> {
    const _csrf = await client.tokenOf('/console/forgot-password');
    const answer = await client.send('POST', '/console/forgot-password', { _csrf, email }, headers);
    return { status: answer.status, html: await answer.text() };
  }

  const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1] ?? null;

  it('e-mails a one-time link that sets a new password by the policy, ends every session and still asks for the second factor', async () => {
    const sam = await member('sam@resets.example');
    const invitations = mail.messages.length;
    const elsewhere = new FormClient(t.baseUrl);
    t.clock.travelTo(new Date(now() + 30_000));
    try {
      const _csrf = await elsewhere.tokenOf('/console/sign-in');
      await elsewhere.send('POST', '/console/sign-in', { _csrf, email: 'sam@resets.example', password: MEMBER_PASSWORD });
      expect((await elsewhere.send('POST', '/console/sign-in/code', { _csrf, code: codeAt(sam.secret, now()) })).status).toBe(303);
    } finally {
      t.clock.set(null);
    }
    expect([(await sam.client.send('GET', '/console/overview')).status, (await elsewhere.send('GET', '/console/overview')).status]).toEqual([200, 200]);

    // An address without an account gets the very page a member's gets, and no mail.
    const stranger = await ask(new FormClient(t.baseUrl), 'nobody@resets.example');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${t.baseUrl}/console/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${t.baseUrl}/console/forgot-password`);
    await checkScreens(page, SCREENSHOTS, 'forgot-password');
    await page.getByLabel('E-mail address').fill('Sam@Resets.example');
    const asked = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send the link' }).click();
    const answered = await asked;
    expect([stranger.status, answered.status()]).toEqual([200, 200]);
    expect(await answered.text()).toBe(stranger.html);
    await checkScreens(page, SCREENSHOTS, 'forgot-password-sent');

    const [message] = await until(
      async () => mail.messages.slice(invitations),
      (messages) => messages.length === 1,
      10_000,
    );
    expect(message.to).toEqual(['sam@resets.example']);
    expect(message.raw).toMatch(/^Subject: Reset your Licence Verification console password\r$/m);
    const link = linkIn(message.raw);
    if (link === undefined) throw new Error(`No reset link in ${message.raw}`);
    const token = link.split('/').pop() as string;
    // Stored only as its SHA-256, for PASSWORD_RESET_MINUTES (30) from the request.
    const stored = await t.db.query<{ email: string; hash: string; minutes: number }>(
      `SELECT email, password_reset_hash AS hash, round(extract(epoch FROM password_reset_expires_at - now()) / 60)::int AS minutes
         FROM members WHERE password_reset_hash IS NOT NULL`,
    );
    expect(stored.rows).toEqual([{ email: 'sam@resets.example', hash: createHash('sha256').update(token).digest('hex'), minutes: 30 }]);

    // The link: a weak password is refused and the link stays; a good one is taken, once.
    const path = new URL(link).pathname;
    await page.goto(`${t.baseUrl}${path}`);
    await checkScreens(page, SCREENSHOTS, 'reset-password');
    await page.getByLabel('New password').fill('password1234');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('The password is too easy to guess: use a longer phrase of unrelated words.');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('status').waitFor();
    await checkScreens(page, SCREENSHOTS, 'reset-password-done');
    const again = await page.goto(`${t.baseUrl}${path}`);
    expect([again?.status(), await page.getByRole('alert').innerText()]).toEqual([404, DEAD_LINK]);
    const form = new FormClient(t.baseUrl);
    const _csrf = await form.tokenOf('/console/sign-in');
    const reused = await form.send('POST', path, { _csrf, password: 'another fine long phrase here' });
    expect([reused.status, alertOf(await reused.text())]).toEqual([404, DEAD_LINK]);

    // Both sessions ended; the old password no longer works, the new one still asks for the code.
    for (const client of [sam.client, elsewhere]) {
      const ended = await client.send('GET', '/console/overview');
      expect([ended.status, ended.headers.get('location')]).toEqual([303, '/console/sign-in']);
    }
    const old = await form.send('POST', '/console/sign-in', { _csrf, email: 'sam@resets.example', password: MEMBER_PASSWORD });
    expect(old.status).toBe(401);
    const fresh = await form.send('POST', '/console/sign-in', { _csrf, email: 'sam@resets.example', password: NEW_PASSWORD });
    expect([fresh.status, fresh.headers.get('location')]).toEqual([303, '/console/sign-in/code']);

    const events = await t.db.query<{ action: string; actor_type: string; actor_id: string }>(
      `SELECT action, actor_type, actor_id FROM activity_events WHERE user_id = $1 AND action IN ('member.password_reset', 'session.ended') ORDER BY seq`,
      [sam.userId],
    );
    expect(events.rows).toEqual([
      { action: 'member.password_reset', actor_type: 'member', actor_id: sam.id },
      { action: 'session.ended', actor_type: 'member', actor_id: sam.id },
      { action: 'session.ended', actor_type: 'member', actor_id: sam.id },
    ]);
    await page.close();
  });

  it('refuses a link after PASSWORD_RESET_MINUTES, and counts requests per e-mail address as sign-ins are', async () => {
    const lee = await member('lee@resets.example');
    const before = mail.messages.length;
    expect((await ask(new FormClient(t.baseUrl), 'lee@resets.example')).status).toBe(200);
    const [message] = await until(
      async () => mail.messages.slice(before),
      (messages) => messages.length === 1,
      10_000,
    );
    const path = new URL(linkIn(message.raw) as string).pathname;
    t.clock.travelTo(new Date(now() + 31 * 60_000));
    try {
      const expired = await lee.client.send('GET', path);
      expect([expired.status, alertOf(await expired.text())]).toEqual([404, DEAD_LINK]);
    } finally {
      t.clock.set(null);
    }

    // SIGN_IN_FAILURES_PER_EMAIL (5) requests a minute for one address, from any client address; then 429.
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++)
      statuses.push((await ask(new FormClient(t.baseUrl), 'kim@resets.example', { 'x-forwarded-for': `203.0.113.${index + 1}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
