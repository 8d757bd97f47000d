import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator';
import { ConsoleSessions } from '../../src/console/console-sessions';
import { MANUAL_SEND_INTERVAL_MS } from '../../src/webhooks/webhook-limits';
import { launchChromium, seriousAxeViolations, signInToConsole } from '../support/browser';
import { FormClient } from '../support/console-client';
import { request as apiRequest } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { verifyWithJose } from '../support/jose-verify';
import { RECORD_FIELDS } from '../../src/verification-records/verification-record';
import { WebhookReceiver } from '../support/webhook-receiver';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const WIDTHS = [375, 1280] as const;
const VERIFY_TIMEOUT_MS = 1500;

const FOUND = '1011001544208079';
const REVOKED = '1030112233445566';
const SUSPENDED = '1041223344556677';
const UNKNOWN = '1888000000000001';
const PING_DELIVERED = '[data-event-type="ping"][data-delivery-status="DELIVERED"]';
const FORBIDDEN = { code: 'FORBIDDEN', message: 'The request did not come from a console page; reload the page and try again' };
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
/** The words of a page's alert, if it has one. */
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1] ?? null;

describe('the partner console', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    // The register may take longer than a verification waits (PENDING), but not longer than a lookup waits.
    // The webhook receiver listens on loopback, which only a development setting lets endpoints name. The test
    // stands in for a proxy on loopback (TRUST_PROXY), to sign in from other addresses and behind TLS.
    t = await startTestApp({
      withWorker: true,
      env: {
        VERIFY_TIMEOUT_MS: String(VERIFY_TIMEOUT_MS),
        REGISTER_REQUEST_TIMEOUT_MS: '6000',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        TRUST_PROXY: 'loopback',
      },
    });
    receiver = await WebhookReceiver.start();
    sandbox = new SandboxAdmin(t.sandbox.url);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t.close();
  });

  /** A fresh browser profile: its own cookie jar, so each user's session is its own. */
  async function openBrowser(): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    cspViolations = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  const signIn = (key: string): Promise<void> => signInToConsole(page, t.baseUrl, key);

  /** Screenshots at both widths, and axe-core's verdict: no serious or critical violation. */
  async function checkPage(name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
      const violations = await seriousAxeViolations(page);
      expect({ page: name, width, violations }).toEqual({ page: name, width, violations: [] });
      // Nothing wider than the window: the page works at this width without scrolling sideways.
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect({ page: name, width, overflow }).toEqual({ page: name, width, overflow: 0 });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(cspViolations).toEqual([]);
  }

  describe('in a browser', () => {
    let owner: { key: string; keyId: string; userId: string };

    beforeAll(async () => {
      owner = await t.createKey({ name: 'Compliance desk', quota: 50 });
      await openBrowser();
    });
    afterAll(async () => {
      await context.close();
    });

    it("signs in with a key and sees the month's usage", async () => {
      await page.goto(`${t.baseUrl}/console`);
      await expect(page.getByRole('button', { name: 'Sign in with the key' }).count()).resolves.toBe(1);
      await checkPage('sign-in');
      await signIn(owner.key);
      await expect(page.locator('[data-figure="used"]').innerText()).resolves.toBe('0');
      await expect(page.locator('[data-figure="quota"]').innerText()).resolves.toBe('50');
      await expect(page.locator('[data-figure="remaining"]').innerText()).resolves.toBe('50');
      for (const name of ['Overview', 'Verify', 'History', 'Rosters', 'Watchlist', 'Webhooks', 'Keys']) {
        await expect(page.getByRole('navigation').getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
      }
      // The key is in no cookie and nowhere in the page.
      const cookies = await context.cookies();
      expect(cookies.map((cookie) => cookie.value).join(' ')).not.toContain(owner.key);
      expect(await page.content()).not.toContain(owner.key);
    });

    it("verifies a number and shows the licence card, then counts it in the month's usage", async () => {
      await page.getByRole('link', { name: 'Verify', exact: true }).click();
      await page.getByLabel('Licence number').fill(FOUND);
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      const card = page.getByRole('article', { name: 'Licence of JANE DOE' });
      await card.waitFor();
      const text = await card.innerText();
      for (const part of ['JANE DOE', 'Active', 'Door Supervision', 'Front Line', 'Expiry']) expect(text).toContain(part);
      expect(text).toMatch(/\d+ days? left/);
      await checkPage('verify');

      await page.getByRole('link', { name: 'Overview', exact: true }).click();
      await expect(page.locator('[data-figure="used"]').innerText()).resolves.toBe('1');
      await expect(page.locator('[data-usage-words]').innerText()).resolves.toMatch(
        /^You have used 1 licence number this month, of the \d+ your plan allows \(\d+ left\)\. Each number counts once a month/,
      );
      await expect(page.locator('[data-figure="remaining"]').innerText()).resolves.toBe('49');
      await checkPage('overview');
    });

    it("checks the holder with names and a date of birth, as verify-holder answers, and names a bad field in the API's words", async () => {
      const checkHolder = async (firstName: string, surname: string, dateOfBirth: string) => {
        await page.getByRole('link', { name: 'Verify', exact: true }).click();
        await page.getByLabel('Licence number').fill(FOUND);
        await page.getByLabel('First name').fill(firstName);
        await page.getByLabel('Surname').fill(surname);
        await page.getByLabel('Date of birth').fill(dateOfBirth);
        await page.getByRole('button', { name: 'Verify', exact: true }).click();
        await page.getByRole('heading', { name: `Result for ${FOUND}` }).waitFor();
      };
      const checked = async () =>
        Object.fromEntries(
          await Promise.all(
            (await page.locator('[data-check]').all()).map(async (line) => [await line.getAttribute('data-check'), await line.getAttribute('data-value')]),
          ),
        );
      const searchesBefore = await sandbox.requestsFor(FOUND);

      await checkHolder('Jane', 'Doe', '1988-07-15');
      await expect(checked()).resolves.toEqual({ Name: 'MATCH', 'Date of birth': 'CONFIRMED' });
      await expect(page.locator('[data-check="Date of birth"]').innerText()).resolves.toContain('The register confirms this date of birth');
      // The fields keep what was typed; the card is the one verify shows.
      await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Jane');
      await page.getByRole('article', { name: 'Licence of JANE DOE' }).waitFor();
      await checkPage('verify-holder');

      await checkHolder('John', 'Smith', '');
      await expect(checked()).resolves.toEqual({ Name: 'MISMATCH', 'Date of birth': 'NOT_CHECKED' });
      // The number's own card came from the cache both times.
      expect(await sandbox.requestsFor(FOUND)).toBe(searchesBefore);

      await page.getByRole('link', { name: 'Verify', exact: true }).click();
      await page.getByLabel('Licence number').fill(FOUND);
      await page.getByLabel('First name').fill('Jane');
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(page.getByRole('alert').innerText()).resolves.toBe('surname must be 1 to 50 letters, spaces, hyphens or apostrophes');
      await expect(page.locator('[data-check]').count()).resolves.toBe(0);

      // One number charged once; three verifications answered FOUND (the card, then two holder checks), the
      // refused form none.
      await page.getByRole('link', { name: 'Overview', exact: true }).click();
      await expect(page.locator('[data-figure="used"]').innerText()).resolves.toBe('1');
      await expect(page.locator('[data-usage-words]').innerText()).resolves.toMatch(
        /^You have used 1 licence number this month, of the \d+ your plan allows \(\d+ left\)\. Each number counts once a month/,
      );
      const answers = await page
        .locator('[data-answer]')
        .evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('data-answer'), cell.textContent]));
      expect(answers).toEqual([
        ['FOUND', '3'],
        ['NOT_FOUND', '0'],
        ['TOO_MANY_RESULTS', '0'],
        ['PENDING', '0'],
      ]);
    });

    it('shows PENDING as progress and asks again with the same key until the card comes', async () => {
      await sandbox.setFault({ fault: 'none', latencyMs: VERIFY_TIMEOUT_MS + 1500, licenceNumber: REVOKED });
      try {
        await page.getByRole('link', { name: 'Verify', exact: true }).click();
        await page.getByLabel('Licence number').fill(REVOKED);
        await page.getByRole('button', { name: 'Verify', exact: true }).click();
        await expect(page.locator('[data-status="PENDING"]').innerText()).resolves.toContain('still in progress');
        await expect(page.getByRole('button', { name: 'Check again' }).count()).resolves.toBe(1);
        const card = page.getByRole('article');
        await card.waitFor({ timeout: 15_000 });
        await expect(card.innerText()).resolves.toContain('Revoked');
        expect(await sandbox.requestsFor(REVOKED)).toBe(1);
      } finally {
        await sandbox.clearFaults();
      }
    });

    it('creates a key shown once, which works against the API, then revokes it after a confirmation', async () => {
      await page.getByRole('link', { name: 'Keys', exact: true }).click();
      await expect(page.locator(`tr[data-key-id="${owner.keyId}"]`).innerText()).resolves.toContain('this session');
      await checkPage('keys');
      await page.getByLabel('Name').fill('Payroll export');
      await page.getByRole('button', { name: 'Create key' }).click();
      const newKey = (await page.locator('#created-key').innerText()).trim();
      expect(newKey).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
      await checkPage('keys-created');
      expect((await apiRequest(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': newKey } })).status).toBe(200);

      await page.getByRole('link', { name: 'Keys', exact: true }).click();
      expect(await page.content()).not.toContain(newKey);
      let confirmation = '';
      page.once('dialog', (dialog) => void (confirmation = dialog.message()));
      await page.getByRole('button', { name: 'Revoke Payroll export' }).click();
      await page.waitForURL(`${t.baseUrl}/console/keys`);
      expect(confirmation).toContain('Revoke the key “Payroll export”');
      await expect(page.getByRole('button', { name: 'Revoke Payroll export' }).count()).resolves.toBe(0);
      const refused = await apiRequest(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': newKey } });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(UNAUTHORIZED);
    });

    it("checks a 5-row roster, shows its progress to the end, the counts and flags, and downloads the API's CSV", async () => {
      await sandbox.setFault({ fault: 'none', latencyMs: VERIFY_TIMEOUT_MS + 1500, licenceNumber: SUSPENDED });
      try {
        await page.getByRole('link', { name: 'Rosters', exact: true }).click();
        const csv = [
          'licenceNumber,reference',
          `${FOUND},North gate`,
          `${UNKNOWN},Bar`,
          `${SUSPENDED},Slow one`,
          `${REVOKED},Car park`,
          `${FOUND},Again`,
        ].join('\r\n');
        await page.getByLabel('Roster CSV').setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await page.getByRole('button', { name: 'Check roster' }).click();
        await page.waitForURL(/\/console\/rosters\/[0-9a-f-]{36}$/);
        await expect(page.locator('[data-batch-status]').getAttribute('data-batch-status')).resolves.toBe('RUNNING');
        await page.locator('[data-batch-status="COMPLETED"]').waitFor({ timeout: 20_000 });
        const counts = Object.fromEntries(
          await Promise.all(
            ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING', 'ERROR'].map(async (outcome) => [
              outcome,
              await page.locator(`[data-count="${outcome}"]`).innerText(),
            ]),
          ),
        );
        expect(counts).toEqual({ FOUND: '4', NOT_FOUND: '1', TOO_MANY_RESULTS: '0', PENDING: '0', ERROR: '0' });
        const flagged = await page.locator('tr.flagged').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')));
        expect(flagged).toEqual(['2', '3', '4']);
        await checkPage('roster');

        // Outcomes in words, as Verify says them: the counts, the filters and each row's result.
        const labels = await page.locator('dl.counts dt').allInnerTexts();
        expect(labels).toEqual(['Found', 'Not found', 'Several licences for one number', 'Being checked', 'Could not be checked']);
        const results = await page
          .locator('td[data-result]')
          .evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('data-result'), cell.textContent]));
        expect(results).toEqual([
          ['FOUND', 'Found'],
          ['NOT_FOUND', 'Not found'],
          ['FOUND', 'Found'],
          ['FOUND', 'Found'],
          ['FOUND', 'Found'],
        ]);
        await page.getByRole('link', { name: 'Not found', exact: true }).click();
        await expect(page.locator('tbody tr').count()).resolves.toBe(1);

        const batchId = page.url().split('/').at(-1)!.split('?')[0];
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
        const downloaded = readFileSync(await download.path(), 'utf8');
        const fromApi = await apiRequest(t.baseUrl, 'GET', `/v1/batches/${batchId}/results.csv`, { headers: { 'x-api-key': owner.key } });
        expect(fromApi.status).toBe(200);
        // The same file byte for byte: its BOM (for spreadsheets) too, which fetch drops when it decodes the text.
        expect(downloaded).toBe(`\uFEFF${fromApi.text}`);
        expect(downloaded.trim().split('\r\n')).toHaveLength(6);

        await page.getByRole('link', { name: 'Rosters', exact: true }).click();
        await expect(page.locator(`tr[data-batch-id="${batchId}"]`).count()).resolves.toBe(1);
        await checkPage('rosters');
      } finally {
        await sandbox.clearFaults();
      }
    });

    it('lists every answer on the History page, reached from the Overview, with filters, the CSV download and each receipt', async () => {
      const api = (path: string) => apiRequest(t.baseUrl, 'GET', path, { headers: { 'x-api-key': owner.key } });
      type Listed = { verifications: { verificationId: string; channel: string }[] };
      // The console's verifications and the roster's five rows, each with its record.
      const all = await until(
        async () => (await api('/v1/verifications?limit=1000')).body as Listed,
        (listed) => listed.verifications.filter((record) => record.channel === 'batch').length === 5,
        5_000,
      );
      const consoleIds = all.verifications.filter((record) => record.channel === 'console').map((record) => record.verificationId);
      expect(consoleIds.length).toBeGreaterThanOrEqual(2);
      // The first verification of the Verify page, recorded with exactly the record's fields.
      const first = (await api(`/v1/verifications/${consoleIds.at(-1)}`)).body as Record<string, unknown>;
      expect(Object.keys(first)).toEqual([...RECORD_FIELDS, 'mode']);
      expect(first).toMatchObject({
        userId: owner.userId,
        keyId: owner.keyId,
        licenceNumber: FOUND,
        status: 'FOUND',
        channel: 'console',
        source: 'register',
      });
      expect(first).toMatchObject({ nameCheck: null, dateOfBirthCheck: null, batchId: null, row: null });

      await page.getByRole('link', { name: 'Overview', exact: true }).click();
      await page.getByRole('main').getByRole('link', { name: 'History', exact: true }).click();
      await page.waitForURL(`${t.baseUrl}/console/history`);
      const shown = await page.locator('tr[data-verification-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-verification-id')));
      expect(shown).toEqual(all.verifications.map((record) => record.verificationId));
      await checkPage('history');

      await page.getByLabel('Channel').selectOption('batch');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/channel=batch/);
      await expect(page.locator('tr[data-verification-id]').count()).resolves.toBe(5);
      await page.getByLabel('Channel').selectOption('console');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/channel=console/);
      const consoleShown = await page
        .locator('tr[data-verification-id]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-verification-id')));
      expect(consoleShown).toEqual(consoleIds);

      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the period as CSV' }).click()]);
      const fromApi = await api('/v1/verifications/export');
      expect(readFileSync(await csv.path(), 'utf8')).toBe(`\uFEFF${fromApi.text}`);

      const [receipt] = await Promise.all([
        page.waitForEvent('download'),
        page
          .getByRole('link', { name: /^Receipt/ })
          .first()
          .click(),
      ]);
      const verified = await verifyWithJose(readFileSync(await receipt.path(), 'utf8'), `${t.baseUrl}/.well-known/jwks.json`);
      expect(verified).toMatchObject({ ok: true, payload: { verificationId: consoleIds[0], channel: 'console', iss: t.baseUrl } });
    });

    it('names the CSV row of a bad roster, as the API does, and charges nothing', async () => {
      await page.getByRole('link', { name: 'Rosters', exact: true }).click();
      const before = await page.locator('tbody tr').count();
      const csv = ['licenceNumber', FOUND, '12345'].join('\n');
      await page.getByLabel('Roster CSV').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Check roster' }).click();
      await expect(page.getByRole('alert').innerText()).resolves.toBe('Row 3: licence number must be 16 digits');
      await page.reload();
      await expect(page.locator('tbody tr').count()).resolves.toBe(before);
    });

    it('watches a number and sees it in the table, imports a CSV of numbers, and removes one', async () => {
      await page.getByRole('link', { name: 'Watchlist', exact: true }).click();
      // How often this deployment checks again, from its WATCH_RECHECK_SECONDS (the default, a day, here).
      await expect(page.getByText('Watched licences are checked against the register every day;').count()).resolves.toBe(1);
      await page.getByLabel('Licence number').fill(FOUND);
      await page.getByLabel('Reference').fill('guard-0042');
      await page.getByRole('button', { name: 'Watch', exact: true }).click();
      await page.waitForURL(`${t.baseUrl}/console/watchlist`);
      const row = page.locator(`tr[data-watched="${FOUND}"]`);
      await expect(row.innerText()).resolves.toContain('guard-0042');

      const csv = ['licenceNumber,reference', `${REVOKED},car park`, `${UNKNOWN},bar`].join('\n');
      await page.getByLabel('Numbers CSV').setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.locator(`tr[data-watched="${UNKNOWN}"]`).waitFor();
      await expect(page.locator('tbody tr').count()).resolves.toBe(3);
      await checkPage('watchlist');

      await page.getByRole('button', { name: `Remove ${UNKNOWN}` }).click();
      await page.waitForURL(`${t.baseUrl}/console/watchlist`);
      await expect(page.locator(`tr[data-watched="${UNKNOWN}"]`).count()).resolves.toBe(0);
      await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    });

    it('adds a webhook endpoint, shows its secret once, and sees a test delivery in its log and the events feed', async () => {
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}/console-hook`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await page.locator('#signing-secret').innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      receiver.useSecret('/console-hook', secret);

      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      expect(await page.content()).not.toContain(secret);
      await page.getByRole('button', { name: 'Send test' }).click();
      await page.waitForURL(`${t.baseUrl}/console/webhooks`);
      await until(
        async () => {
          await page.reload();
          return page.locator(PING_DELIVERED).count();
        },
        (delivered) => delivered === 1,
      );
      const delivery = await page.locator(PING_DELIVERED).innerText();
      expect(delivery).toContain('ping');
      expect(delivery).toContain('200');
      // Changes the worker found in the numbers watched above may be delivered too; the ping is the one sent here.
      const pings = () => receiver.to('/console-hook').filter((received) => received.body.type === 'ping');
      expect(pings().map((received) => received.verified)).toEqual([true]);
      await expect(page.locator('tr[data-event]', { hasText: 'ping' }).count()).resolves.toBe(1);
      await checkPage('webhooks');

      // A replay is a manual send too: one per endpoint per 10 s, on the service clock.
      t.clock.travelTo(new Date(Date.now() + MANUAL_SEND_INTERVAL_MS));
      try {
        await page.getByRole('button', { name: 'Retry ping delivery' }).click();
        await until(
          () => pings().length,
          (count) => count === 2,
        );
      } finally {
        t.clock.set(null);
      }

      // A new URL through the endpoint's own form: the same endpoint, logged as webhook.updated with the session's key.
      const moved = `${receiver.url}/console-hook-moved`;
      await page.locator('section.endpoint').getByLabel('New URL').fill(moved);
      await page.getByRole('button', { name: 'Change URL' }).click();
      await expect(page.locator('p.notice.ok').innerText()).resolves.toBe(`The endpoint now sends to ${moved}.`);
      await expect(page.locator('section.endpoint h3').allInnerTexts()).resolves.toEqual([moved]);
      const { rows } = await t.db.query(`SELECT actor_type, changes->'url'->>'new' AS url FROM activity_events WHERE action = 'webhook.updated'`);
      expect(rows).toEqual([{ actor_type: 'key', url: moved }]);
    });

    it('signs out, and the old cookie is refused afterwards', async () => {
      const [session] = (await context.cookies()).filter((cookie) => cookie.name === '__Host-lvs_console');
      // Chromium keeps the Secure, __Host- cookie of a console served over plain HTTP on loopback.
      expect([session.secure, session.path, session.domain]).toEqual([true, '/', new URL(t.baseUrl).hostname]);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${t.baseUrl}/console/sign-in`);
      const replay = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie: `__Host-lvs_console=${session.value}` } });
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toBe('/console/sign-in');
    });

    it("answers a page past the user's rate with 429 in the console's layout, and an upload's refusal in the page's words", async () => {
      const user = await t.createKey({ name: 'Busy desk' });
      expect((await runAdminCli(t.env, 'set-rate-limit', user.userId, '1')).status).toBe(0); // a bucket of 2, one back a second
      await context.close();
      await openBrowser();
      await signIn(user.key);
      /**
       * Empties the user's bucket through the API, the console's bucket too, with a whole second before the next token: a
       * burst of 3 finds 2 tokens at most, and the bucket refills continuously, so the first request admitted after the
       * refusal takes the token that had just come back.
       */
      const drain = async () => {
        const watchlist = () => fetch(`${t.baseUrl}/v1/watchlist`, { headers: { 'x-api-key': user.key } });
        const burst = await Promise.all([0, 1, 2].map(watchlist));
        expect(burst.map((answer) => answer.status)).toContain(429);
        const giveUpAt = Date.now() + 3000;
        for (let answer = await watchlist(); answer.status !== 200; answer = await watchlist()) {
          expect([answer.status, Date.now() < giveUpAt]).toEqual([429, true]);
        }
        return Date.now();
      };
      const words =
        'Your organisation has sent more requests than its rate allows, counting this console and its API keys together. ' +
        'Nothing was done. Try again in 1 second: reload the page, or send the form again.';

      // The upload is held in the browser until the bucket is empty; a token comes back only a second later.
      await page.getByRole('link', { name: 'Rosters', exact: true }).click();
      await page.waitForURL(`${t.baseUrl}/console/rosters`);
      let drained = 0;
      await page.route('**/console/rosters', async (route) => {
        drained = await drain();
        await route.continue();
      });
      await page.getByLabel('Roster CSV').setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(`licenceNumber\n${UNKNOWN}`) });
      const [upload] = await Promise.all([
        page.waitForResponse(`${t.baseUrl}/console/rosters`),
        page.getByRole('button', { name: 'Check roster' }).click(),
      ]);
      expect(Date.now() - drained).toBeLessThan(1000);
      expect([upload.status(), upload.headers()['retry-after']]).toEqual([429, '1']);
      await expect(page.locator('[data-upload-error]').innerText()).resolves.toBe(words);
      await page.unroute('**/console/rosters');
      const batches = await t.db.query('SELECT count(*)::int AS count FROM batches WHERE user_id = $1', [user.userId]);
      expect(batches.rows).toEqual([{ count: 0 }]);

      // A page: 429 with Retry-After, signed in, in the layout, accessible at both widths, its assets served.
      await drain();
      const refused = await page.goto(`${t.baseUrl}/console/overview`);
      expect([refused?.status(), refused?.headers()['retry-after']]).toEqual([429, '1']);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Too many requests');
      await expect(page.locator('main').innerText()).resolves.toBe(`Too many requests\n\n${words.replace('done. Try', 'done.\n\nTry')}`);
      await expect(page.getByRole('navigation', { name: 'Console pages' }).count()).resolves.toBe(1);
      await checkPage('rate-limited');
    });
  });

  describe('sessions and forms', () => {
    it('sets a __Host- cookie (Path=/, Secure) that is HttpOnly, SameSite=Strict and lasts CONSOLE_SESSION_HOURS (12), over plain HTTP too', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      const signInPage = await client.send('GET', '/console/sign-in');
      expect(signInPage.headers.getSetCookie()).toEqual([
        expect.stringMatching(/^__Host-lvs_console_sign_in=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict; Secure$/),
      ]);
      const signedIn = await client.signIn(key);
      expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/console/overview']);
      expect(signedIn.headers.getSetCookie().filter((line) => line.includes('lvs_console='))).toEqual([
        expect.stringMatching(/^__Host-lvs_console=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/),
      ]);
    });

    it('keeps a session ended when a request that read it before the sign-out finishes after it', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const _csrf = await client.tokenOf('/console/overview');
      const cookie = client.cookieHeader;
      // A request of the session reads it, then waits on its key's check while the sign-out ends the session.
      const authenticator = t.app.get(ApiKeyAuthenticator);
      const check = authenticator.holderOfHash.bind(authenticator);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const reachedCheck = new Promise<void>((resolve) => (reached = resolve));
      jest.spyOn(authenticator, 'holderOfHash').mockImplementationOnce(async (keyHash) => {
        reached();
        await released;
        return check(keyHash);
      });
      const inFlight = t.app.get(ConsoleSessions).visit({ headers: { cookie } } as FastifyRequest);
      await reachedCheck;
      const signedOut = await client.send('POST', '/console/sign-out', { _csrf });
      expect([signedOut.status, signedOut.headers.get('location')]).toEqual([303, '/console/sign-in']);
      release();
      await inFlight;
      jest.restoreAllMocks();

      const after = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie } });
      expect([after.status, after.headers.get('location')]).toEqual([303, '/console/sign-in']);
    });

    it('refuses a change without the CSRF token, with a wrong one, with a foreign Origin or without Origin: 403, nothing done', async () => {
      const { key, userId } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const _csrf = await client.tokenOf('/console/keys');
      const keyCount = async () => (await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [userId])).rows[0].n;
      for (const [form, headers] of [
        [{ name: 'no token' }, {}],
        [{ _csrf: `${_csrf.slice(0, -1)}x`, name: 'wrong token' }, {}],
        [{ _csrf, name: 'foreign origin' }, { origin: 'https://evil.example' }],
        [{ _csrf, name: 'no origin' }, { origin: '' }],
      ] as [Record<string, string>, Record<string, string>][]) {
        const response = await client.send('POST', '/console/keys', form, headers);
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual(FORBIDDEN);
      }
      expect(await keyCount()).toBe(1);
      const accepted = await client.send('POST', '/console/keys', { _csrf, name: 'with token' });
      expect(accepted.status).toBe(201);
      expect(await keyCount()).toBe(2);
    });

    it('refuses a sign-in form from another site: 403', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      const _csrf = await client.tokenOf('/console/sign-in');
      const response = await client.send('POST', '/console/sign-in', { _csrf, apiKey: key }, { origin: 'https://evil.example' });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(FORBIDDEN);
      expect(response.headers.getSetCookie().some((line) => line.startsWith('__Host-lvs_console='))).toBe(false);
    });

    it('answers the eleventh failed sign-in of a minute from one address with 429, even with a good key', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      const address = { 'x-forwarded-for': '203.0.113.77' };
      for (let attempt = 1; attempt <= 10; attempt++) {
        const _csrf = await client.tokenOf('/console/sign-in');
        const failed = await client.send('POST', '/console/sign-in', { _csrf, apiKey: `lvs_wrong${attempt}` }, address);
        expect(failed.status).toBe(401);
        expect(await failed.text()).toContain('Invalid or missing API key');
      }
      const _csrf = await client.tokenOf('/console/sign-in');
      const limited = await client.send('POST', '/console/sign-in', { _csrf, apiKey: key }, address);
      expect(limited.status).toBe(429);
      expect(await limited.text()).toContain('Too many failed sign-ins from this address; try again in a minute');
      // Another address is not affected.
      const elsewhere = await client.send('POST', '/console/sign-in', { _csrf, apiKey: key }, { 'x-forwarded-for': '203.0.113.78' });
      expect(elsewhere.status).toBe(303);
    });

    it('processes at most 10 of 30 concurrent failed sign-ins from one address: the rest get 429 unasked', async () => {
      const client = new FormClient(t.baseUrl);
      const _csrf = await client.tokenOf('/console/sign-in');
      const address = { 'x-forwarded-for': '203.0.113.90' };
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, attempt) => client.send('POST', '/console/sign-in', { _csrf, apiKey: `lvs_concurrent${attempt}` }, address)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect([statuses.filter((status) => status === 401).length, statuses.filter((status) => status === 429).length]).toEqual([10, 20]);
      const failures = await t.redis.keys(`${t.redisPrefix}:console-sign-in-failures:203.0.113.90:*`);
      expect(failures).toHaveLength(1);
      expect(Number(await t.redis.get(failures[0]))).toBe(30);
    });

    it('counts failed sign-ins from IPv6 addresses by their /64', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      const _csrf = await client.tokenOf('/console/sign-in');
      for (let attempt = 1; attempt <= 10; attempt++) {
        const failed = await client.send(
          'POST',
          '/console/sign-in',
          { _csrf, apiKey: `lvs_wrong${attempt}` },
          { 'x-forwarded-for': `2001:db8:77:1::${attempt}` },
        );
        expect([attempt, failed.status]).toEqual([attempt, 401]);
      }
      const sameNetwork = await client.send('POST', '/console/sign-in', { _csrf, apiKey: key }, { 'x-forwarded-for': '2001:db8:77:1:abcd::1' });
      expect(sameNetwork.status).toBe(429);
      const nextNetwork = await client.send('POST', '/console/sign-in', { _csrf, apiKey: key }, { 'x-forwarded-for': '2001:db8:77:2::1' });
      expect(nextNetwork.status).toBe(303);
    });

    it('ends a session at its next request once its key is revoked through the API', async () => {
      const { key, keyId } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      expect((await client.send('GET', '/console/overview')).status).toBe(200);
      // A key revokes itself (the last step of a rotation); the session signed in with it ends.
      expect((await apiRequest(t.baseUrl, 'DELETE', `/v1/keys/${keyId}`, { headers: { 'x-api-key': key } })).status).toBe(204);
      const refused = await client.send('GET', '/console/overview');
      expect(refused.status).toBe(303);
      expect(refused.headers.get('location')).toBe('/console/sign-in');
    });

    it('ends a session CONSOLE_IDLE_MINUTES (30) after its last request, and CONSOLE_SESSION_HOURS (12) after sign-in however busy it is', async () => {
      const { key } = await t.createKey();
      const busy = new FormClient(t.baseUrl);
      const idle = new FormClient(t.baseUrl);
      const signedInAt = Date.now();
      await busy.signIn(key);
      await idle.signIn(key);
      const at = (minutes: number) => t.clock.travelTo(new Date(signedInAt + minutes * 60_000));
      const overview = async (client: FormClient) => (await client.send('GET', '/console/overview')).status;
      try {
        at(29);
        expect([await overview(busy), await overview(idle)]).toEqual([200, 200]);
        at(60);
        expect([await overview(busy), await overview(idle)]).toEqual([303, 303]);

        t.clock.set(null);
        await busy.signIn(key);
        const busySince = Date.now();
        for (let minutes = 25; minutes < 720; minutes += 25) {
          t.clock.travelTo(new Date(busySince + minutes * 60_000));
          expect([minutes, await overview(busy)]).toEqual([minutes, 200]);
        }
        t.clock.travelTo(new Date(busySince + 720 * 60_000));
        expect(await overview(busy)).toBe(303);
      } finally {
        t.clock.set(null);
      }
    });

    it('ends a session at its next request once its user is disabled, and lets it sign in again once enabled', async () => {
      const { key, userId } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      expect((await client.send('GET', '/console/keys')).status).toBe(200);
      expect((await runAdminCli(t.env, 'disable-user', userId)).status).toBe(0);
      const refused = await client.send('GET', '/console/keys');
      expect([refused.status, refused.headers.get('location')]).toEqual([303, '/console/sign-in']);
      expect((await client.signIn(key)).status).toBe(401);
      expect((await runAdminCli(t.env, 'enable-user', userId)).status).toBe(0);
      expect((await client.signIn(key)).status).toBe(303);
    });

    it('signs out the session whose own key it revokes', async () => {
      const { key, keyId } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const session = client.cookies.get('__Host-lvs_console');
      const _csrf = await client.tokenOf('/console/keys');
      const revoked = await client.send('POST', `/console/keys/${keyId}/revoke`, { _csrf });
      expect(revoked.status).toBe(303);
      expect(revoked.headers.get('location')).toBe('/console/sign-in');
      const replay = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie: `__Host-lvs_console=${session}` } });
      expect(replay.status).toBe(303);
    });

    it("gives user B's session none of user A's keys, by id either", async () => {
      const userA = await t.createKey({ name: 'A desk' });
      const userB = await t.createKey({ name: 'B desk' });
      const b = new FormClient(t.baseUrl);
      await b.signIn(userB.key);
      const keysPage = await (await b.send('GET', '/console/keys')).text();
      expect(keysPage).toContain(userB.keyId);
      expect(keysPage).not.toContain(userA.keyId);
      const _csrf = await b.tokenOf('/console/keys');
      const response = await b.send('POST', `/console/keys/${userA.keyId}/revoke`, { _csrf });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 'KEY_NOT_FOUND', message: 'API key not found' });
      expect((await apiRequest(t.baseUrl, 'GET', '/v1/keys', { headers: { 'x-api-key': userA.key } })).status).toBe(200);
    });

    it("shows Verify's refusals on the page in the API's words, as typed, and answers a bad form 400", async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const _csrf = await client.tokenOf('/console/verify');
      const verify = (form: Record<string, string>) => client.send('POST', '/console/verify', { _csrf, ...form });

      const badNumber = await verify({ licenceNumber: ' 12345 ', firstName: 'Jane', surname: '', dateOfBirth: '' });
      const badNumberPage = await badNumber.text();
      expect([badNumber.status, badNumber.headers.get('content-type'), alertOf(badNumberPage)]).toEqual([
        200,
        'text/html; charset=utf-8',
        'Licence number must be 16 digits',
      ]);
      const typed = (html: string, id: string) => new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html)?.[1];
      expect([typed(badNumberPage, 'licence-number'), typed(badNumberPage, 'first-name'), typed(badNumberPage, 'surname')]).toEqual(['12345', 'Jane', '']);

      const badDate = await verify({ licenceNumber: FOUND, firstName: 'Jane', surname: 'Doe', dateOfBirth: '1988-02-30' });
      expect([badDate.status, alertOf(await badDate.text())]).toEqual([200, 'dateOfBirth must be a real date written YYYY-MM-DD']);

      // Blank holder fields are no holder check: the number's card alone, the number read without its spaces.
      const plain = await verify({ licenceNumber: ` ${FOUND} `, firstName: ' ', surname: '', dateOfBirth: '' });
      const plainPage = await plain.text();
      expect([plain.status, alertOf(plainPage), plainPage.includes('aria-label="Licence of JANE DOE"'), plainPage.includes('data-check=')]).toEqual([
        200,
        null,
        true,
        false,
      ]);
      expect(plainPage).toContain(`<h2 id="result">Result for ${FOUND}</h2>`);

      for (const form of [{ licenceNumber: FOUND, extra: '1' }, { licenceNumber: '1'.repeat(101) }] as Record<string, string>[]) {
        const refused = await verify(form);
        expect([refused.status, await refused.json()]).toEqual([
          400,
          { code: 'VALIDATION_ERROR', message: 'Form may only contain the fields of its console page' },
        ]);
      }
      const unreadable = await client.send(
        'POST',
        '/console/verify',
        undefined,
        { 'content-type': 'application/json', origin: t.baseUrl },
        JSON.stringify({ _csrf, licenceNumber: FOUND }),
      );
      expect([unreadable.status, await unreadable.json()]).toEqual([
        400,
        { code: 'VALIDATION_ERROR', message: 'Content-Type must be application/x-www-form-urlencoded' },
      ]);
    });

    it("takes History's blank filters as none and shows a bad one on the page in the API's words", async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const history = async (query: string) => {
        const response = await client.send('GET', `/console/history?${query}`);
        return [response.status, alertOf(await response.text())];
      };
      const blank = 'licenceNumber=&from=&to=&status=&channel=';

      const unfiltered = await client.send('GET', `/console/history?${blank}`);
      const unfilteredPage = await unfiltered.text();
      expect([unfiltered.status, alertOf(unfilteredPage)]).toEqual([200, null]);
      expect(unfilteredPage).toContain('<p>No verification recorded yet.</p>');
      expect(unfilteredPage).toContain('<a href="/console/history/export.csv?" download>');

      await expect(history(`${blank.replace('status=', 'status=LOST')}`)).resolves.toEqual([200, 'status must be FOUND, NOT_FOUND or TOO_MANY_RESULTS']);
      await expect(history('licenceNumber=+')).resolves.toEqual([200, 'licenceNumber must be 16 digits']);
      await expect(history('cursor=nope')).resolves.toEqual([200, 'cursor is not valid']);
      await expect(history('page=2')).resolves.toEqual([
        200,
        'Query may only contain limit, cursor, licenceNumber, from, to, status, channel and memberId',
      ]);

      const refused = await (await client.send('GET', `/console/history?${blank.replace('from=', 'from=2026-13-01')}`)).text();
      expect(refused).toContain('<p>No verification recorded for these filters.</p>');
      expect(refused).toContain('name="from" type="date" value="2026-13-01"');
    });

    it('pages the watchlist by 50', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      const numbers = Array.from({ length: 55 }, (_, index) => String(1_777_000_000_000_000 + index));
      const imported = await client.send(
        'POST',
        '/console/watchlist/import',
        undefined,
        {
          'content-type': 'text/csv',
          'x-csrf-token': await client.tokenOf('/console/watchlist'),
          origin: t.baseUrl,
        },
        ['licenceNumber', ...numbers].join('\n'),
      );
      expect(imported.status).toBe(200);
      expect(await imported.json()).toEqual({ added: 55, updated: 0 });
      const first = await (await client.send('GET', '/console/watchlist')).text();
      const watched = (html: string) => [...html.matchAll(/data-watched="(\d{16})"/g)].map((match) => match[1]);
      expect(watched(first)).toEqual(numbers.slice(0, 50));
      const next = /href="(\/console\/watchlist\?cursor=\d{16})"/.exec(first);
      expect(next).not.toBeNull();
      expect(watched(await (await client.send('GET', next![1])).text())).toEqual(numbers.slice(50));
    });

    it("gives user B's session none of user A's batches, watched numbers or webhook endpoints, by id either", async () => {
      const userA = await t.createKey();
      const userB = await t.createKey();
      const a = new FormClient(t.baseUrl);
      await a.signIn(userA.key);
      const roster = await a.send(
        'POST',
        '/console/rosters',
        undefined,
        {
          'content-type': 'text/csv',
          'x-csrf-token': await a.tokenOf('/console/rosters'),
          origin: t.baseUrl,
        },
        `licenceNumber\n${UNKNOWN}`,
      );
      expect(roster.status).toBe(201);
      const { id: batchId } = (await roster.json()) as { id: string };
      await a.send('POST', '/console/watchlist', { _csrf: await a.tokenOf('/console/watchlist'), licenceNumber: UNKNOWN, reference: 'A only' });
      const hookUrl = `${receiver.url}/a-only`;
      expect((await a.send('POST', '/console/webhooks', { _csrf: await a.tokenOf('/console/webhooks'), url: hookUrl })).status).toBe(201);
      const endpointId = /data-endpoint="([0-9a-f-]{36})"/.exec(await (await a.send('GET', '/console/webhooks')).text())![1];

      const b = new FormClient(t.baseUrl);
      await b.signIn(userB.key);
      expect(await (await b.send('GET', '/console/rosters')).text()).not.toContain(batchId);
      expect(await (await b.send('GET', '/console/watchlist')).text()).not.toContain(UNKNOWN);
      for (const path of [`/console/rosters/${batchId}`, `/console/rosters/${batchId}/results.csv`]) {
        const response = await b.send('GET', path);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ code: 'BATCH_NOT_FOUND', message: 'Batch not found' });
      }
      const removal = await b.send('POST', `/console/watchlist/${UNKNOWN}/remove`, { _csrf: await b.tokenOf('/console/watchlist') });
      expect(removal.status).toBe(404);
      expect(await removal.json()).toEqual({ code: 'WATCH_NOT_FOUND', message: 'Licence number is not on the watchlist' });
      expect(await (await a.send('GET', '/console/watchlist')).text()).toContain('A only');

      expect(await (await b.send('GET', '/console/webhooks')).text()).not.toContain(hookUrl);
      const webhookToken = await b.tokenOf('/console/webhooks');
      for (const action of ['test', 'rotate-secret', 'remove']) {
        const response = await b.send('POST', `/console/webhooks/${endpointId}/${action}`, { _csrf: webhookToken });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ code: 'WEBHOOK_NOT_FOUND', message: 'Webhook endpoint not found' });
      }
      expect(await (await a.send('GET', '/console/webhooks')).text()).toContain(hookUrl);
      expect(receiver.to('/a-only')).toEqual([]);
    });

    it('sends every page, stylesheet and script included, in well under 150 KB', async () => {
      const { key } = await t.createKey();
      const client = new FormClient(t.baseUrl);
      await client.signIn(key);
      let total = 0;
      for (const path of ['/console/overview', '/console/assets/console.css', '/console/assets/console.js']) {
        const response = await client.send('GET', path);
        expect(response.status).toBe(200);
        total += (await response.arrayBuffer()).byteLength;
      }
      expect(total).toBeLessThan(150 * 1024);
    });

    it('has an icon: at /favicon.ico, where browsers look, and named by every page', async () => {
      const icon = await fetch(`${t.baseUrl}/favicon.ico`);
      expect([icon.status, icon.headers.get('content-type'), icon.headers.get('cache-control')]).toEqual([200, 'image/svg+xml', 'public, max-age=3600']);
      const svg = await icon.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      const linked = await fetch(`${t.baseUrl}/console/assets/favicon.svg`);
      expect([linked.status, await linked.text()]).toEqual([200, svg]);
      expect(await (await fetch(`${t.baseUrl}/console/sign-in`)).text()).toContain(
        '<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">',
      );
    });
  });
});
