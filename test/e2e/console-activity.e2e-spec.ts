import { parse } from 'csv-parse/sync';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { GENESIS_HASH } from '../../src/activity/activity-chain';
import { ActivityLog } from '../../src/activity/activity-log';
import { MembersService } from '../../src/members/members.service';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { FormClient } from '../support/console-client';
import { request } from '../support/http';
import { joinAsMember, joinByForm, MEMBER_PASSWORD } from '../support/member-join';
import { startTestApp, TestApp } from '../support/test-app';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'console');
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };
const CSV_HEADER = [
  'id',
  'occurredAt',
  'actorType',
  'actorId',
  'actorName',
  'action',
  'targetType',
  'targetId',
  'clientAddress',
  'userAgent',
  'changes',
  'hash',
  'previousHash',
];
const NOT_ALLOWED = 'Your role, compliance, does not allow this. Nothing was done.';

interface Event {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string | null };
  action: string;
  target: { type: string; id: string };
  hash: string;
  previousHash: string;
}

/**
 * The console's Activity page and its CSV export (issue 41): an owner reads the events of the account made by the
 * operator, the admin command, members and keys, filters them, pages them with the API's cursor and downloads them
 * with their hash chain; a compliance member and a viewer key's session get the forbidden page for both.
 */
describe('the Activity page', () => {
  let t: TestApp;
  let browser: Browser;
  let account: { userId: string; key: string; keyId: string };
  let ownerContext: BrowserContext;
  let ownerPage: Page;
  let ownerId: string;
  let complianceId: string;
  let compliance: FormClient;
  let viewerKey: string;
  let viewerKeyId: string;
  /** every event of the account, newest first, as GET /v1/activity gives them */
  let events: Event[];

  const now = () => t.clock.now().getTime();
  const api = (method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': account.key }, body });
  const rowIds = (page: Page) => page.locator('tr[data-event-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event-id')));
  const ownerFetch = async (path: string) =>
    fetch(`${t.baseUrl}${path}`, { headers: { cookie: (await ownerContext.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } });
  const readCsv = (text: string): string[][] => parse(text, { bom: true });

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();

    // The operator's key (key.created by the operator), the admin command's invitation of the owner, who joins.
    account = await t.createKey({ name: 'Acme Guarding' });
    const invited = await t.app.get(MembersService).invite(CLI_ORIGIN, null, account.userId, 'olivia@acme.example', 'owner');
    if ('error' in invited) throw new Error(invited.error);
    ({ context: ownerContext, page: ownerPage } = await openProfile(browser));
    await joinAsMember(ownerPage, t.baseUrl, invited.link, { name: 'Olivia Owner', password: MEMBER_PASSWORD, nowMs: now });

    // The owner invites a compliance member in the console, who joins.
    await ownerPage.getByRole('link', { name: 'Members' }).click();
    await ownerPage.getByLabel('E-mail address').fill('casey@acme.example');
    await ownerPage.getByLabel('Role', { exact: true }).selectOption('compliance');
    await ownerPage.getByRole('button', { name: 'Invite' }).click();
    const link = (await ownerPage.locator('#invitation-link').innerText()).trim();
    compliance = new FormClient(t.baseUrl);
    await joinByForm(compliance, link, now);
    const members = await t.db.query<{ id: string; email: string }>('SELECT id, email FROM members WHERE user_id = $1', [account.userId]);
    ownerId = members.rows.find((row) => row.email === 'olivia@acme.example')!.id;
    complianceId = members.rows.find((row) => row.email === 'casey@acme.example')!.id;

    // The account's key makes a viewer key and a webhook endpoint.
    const viewer = await api('POST', '/v1/keys', { name: 'Payroll export', role: 'viewer' });
    expect(viewer.status).toBe(201);
    ({ key: viewerKey, id: viewerKeyId } = viewer.body as { key: string; id: string });
    expect((await api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook' })).status).toBe(201);

    const listed = await api('GET', '/v1/activity');
    expect(listed.status).toBe(200);
    events = (listed.body as { events: Event[] }).events;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it("shows the owner every event newest first, each actor in words: the operator, the admin command, members and the account's key", async () => {
    const summary = events.map((event) => `${event.action} ${event.actor.type}`);
    expect(summary).toEqual([
      'webhook.created key',
      'key.created key',
      'member.signed_in member',
      'member.factor_added member',
      'member.joined member',
      'member.invited member',
      'member.signed_in member',
      'member.factor_added member',
      'member.joined member',
      'member.invited cli',
      'key.created operator',
    ]);

    await ownerPage.getByRole('link', { name: 'Activity' }).click();
    await ownerPage.waitForURL(`${t.baseUrl}/console/activity`);
    expect(await rowIds(ownerPage)).toEqual(events.map((event) => event.id));
    const { rows: prefixes } = await t.db.query<{ key_prefix: string }>('SELECT key_prefix FROM api_keys WHERE id = $1', [account.keyId]);
    const keyWords = `Key ${prefixes[0].key_prefix}…`;
    const cells = async (eventId: string) => (await ownerPage.locator(`tr[data-event-id="${eventId}"] td`).allInnerTexts()).map((cell) => cell.trim());
    const [webhook, key, , , , invitation, , , , ownerInvitation, operatorKey] = events;
    const webhookCells = await cells(webhook.id);
    expect(webhookCells.slice(1, 4).concat(webhookCells[5])).toEqual([
      keyWords,
      'webhook.created',
      `Webhook ${webhook.target.id.slice(0, 8)}…`,
      '127.0.0.1',
    ]);
    expect(webhookCells[4]).toMatch(/^url: http:\/\/127\.0\.0\.1:9\/hook; events: /);
    expect(await cells(key.id)).toEqual([
      key.occurredAt.slice(0, 19).replace('T', ' '),
      keyWords,
      'key.created',
      `Key ${(await t.db.query<{ key_prefix: string }>('SELECT key_prefix FROM api_keys WHERE id = $1', [viewerKeyId])).rows[0].key_prefix}…`,
      // jsonb keeps an object's keys shortest first, then in order.
      'mode: live; name: Payroll export; role: viewer',
      '127.0.0.1',
    ]);
    expect((await cells(invitation.id)).slice(1, 5)).toEqual([
      'Olivia Owner',
      'member.invited',
      'Sam Session',
      'role: compliance; email: casey@acme.example',
    ]);
    expect((await cells(ownerInvitation.id)).slice(1, 6)).toEqual([
      'The operator’s admin command',
      'member.invited',
      'Olivia Owner',
      'role: owner; email: olivia@acme.example',
      '',
    ]);
    expect((await cells(operatorKey.id)).slice(1, 3)).toEqual(['The service’s operator', 'key.created']);
    await checkPageAt(ownerPage, SCREENSHOTS, 'activity');
  });

  it('narrows the rows by action, kind of actor, actor and time, with the exact counts of the API', async () => {
    const show = async () => {
      await ownerPage.getByRole('button', { name: 'Show' }).click();
      await ownerPage.waitForLoadState();
    };
    const only = (keep: (event: Event) => boolean) => events.filter(keep).map((event) => event.id);

    await ownerPage.goto(`${t.baseUrl}/console/activity`);
    await ownerPage.getByLabel('Action').selectOption('key.created');
    await show();
    expect(new URL(ownerPage.url()).searchParams.get('action')).toBe('key.created');
    expect(await rowIds(ownerPage)).toEqual(only((event) => event.action === 'key.created'));
    expect(await rowIds(ownerPage)).toHaveLength(2);

    await ownerPage.getByLabel('Action').selectOption('');
    await ownerPage.getByLabel('Kind of actor').selectOption('key');
    await show();
    expect(await rowIds(ownerPage)).toEqual(only((event) => event.actor.type === 'key'));
    expect(await rowIds(ownerPage)).toHaveLength(2);

    await ownerPage.getByLabel('Kind of actor').selectOption('');
    await ownerPage.getByLabel('Actor', { exact: true }).selectOption({ label: 'Olivia Owner' });
    await show();
    expect(new URL(ownerPage.url()).searchParams.get('actorId')).toBe(ownerId);
    expect(await rowIds(ownerPage)).toEqual(only((event) => event.actor.id === ownerId));
    expect(await rowIds(ownerPage)).toHaveLength(4);
    await ownerPage.getByLabel('Actor', { exact: true }).selectOption({ label: 'Sam Session' });
    await show();
    expect(await rowIds(ownerPage)).toEqual(only((event) => event.actor.id === complianceId));
    expect(await rowIds(ownerPage)).toHaveLength(3);

    // From the owner's sign-in (inclusive) to the key's creation (exclusive).
    const [, key, ownerSignIn] = events;
    await ownerPage.getByLabel('Actor', { exact: true }).selectOption('');
    await ownerPage.getByLabel('From (UTC)').fill(ownerSignIn.occurredAt);
    await ownerPage.getByLabel('Before (UTC)').fill(key.occurredAt);
    await show();
    expect(await rowIds(ownerPage)).toEqual([ownerSignIn.id]);
    await ownerPage.getByLabel('Before (UTC)').fill('');
    await show();
    expect(await rowIds(ownerPage)).toEqual(events.slice(0, 3).map((event) => event.id));

    // A bad time is the page again, as History shows its refusals: the API's words, the form as sent, no rows.
    const refused = await ownerPage.goto(`${t.baseUrl}/console/activity?from=yesterday`);
    expect(refused?.status()).toBe(200);
    await expect(ownerPage.locator('tr[data-event-id]').count()).resolves.toBe(0);
    await expect(ownerPage.getByRole('alert').innerText()).resolves.toBe('from must be a date-time such as 2026-11-01T00:00:00Z');
    await expect(ownerPage.getByLabel('From (UTC)').inputValue()).resolves.toBe('yesterday');
  });

  it("pages on with the API's cursor, Older to the last page", async () => {
    await ownerPage.goto(`${t.baseUrl}/console/activity?limit=4`);
    const seen: (string | null)[] = [];
    const cursors: string[] = [];
    for (;;) {
      seen.push(...(await rowIds(ownerPage)));
      const older = ownerPage.getByRole('link', { name: 'Older', exact: true });
      if ((await older.count()) === 0) break;
      const href = (await older.getAttribute('href'))!;
      cursors.push(new URL(href, t.baseUrl).searchParams.get('cursor')!);
      await older.click();
      await ownerPage.waitForLoadState();
    }
    expect(seen).toEqual(events.map((event) => event.id));
    // The page's cursors are the API's own: the same pages, the same next cursors.
    const apiCursors: string[] = [];
    for (let cursor: string | null = null; ;) {
      const listed = await api('GET', `/v1/activity?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      cursor = (listed.body as { nextCursor: string | null }).nextCursor;
      if (cursor === null) break;
      apiCursors.push(cursor);
    }
    expect(cursors).toEqual(apiCursors);
    expect(cursors).toHaveLength(2);
  });

  it('downloads the filtered events as CSV: the same rows as the page, with their hash chain', async () => {
    await ownerPage.goto(`${t.baseUrl}/console/activity?limit=4`);
    const all = await ownerPage.getByRole('link', { name: /^Download these events as CSV/ }).getAttribute('href');
    expect(all).toBe('/console/activity/export.csv');
    const download = await ownerFetch(all!);
    expect([download.status, download.headers.get('content-type'), download.headers.get('content-disposition')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      'attachment; filename="activity.csv"',
    ]);
    const bytes = Buffer.from(await download.arrayBuffer());
    const text = bytes.toString('utf8');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(text.split('\r\n')).toHaveLength(events.length + 2);
    const [header, ...rows] = readCsv(text);
    expect(header).toEqual(CSV_HEADER);
    expect(rows).toHaveLength(events.length);
    const column = (name: string) => CSV_HEADER.indexOf(name);
    expect(
      rows.map((row) => [row[column('id')], row[column('occurredAt')], row[column('action')], row[column('hash')], row[column('previousHash')]]),
    ).toEqual(events.map((event) => [event.id, event.occurredAt, event.action, event.hash, event.previousHash]));
    // Each event links to the one before it; the account's first to the genesis hash.
    rows.forEach((row, index) => expect(row[column('previousHash')]).toBe(rows[index + 1]?.[column('hash')] ?? GENESIS_HASH));
    const keyRow = rows.find((row) => row[column('id')] === events[1].id)!;
    expect(Object.fromEntries(CSV_HEADER.map((name, index) => [name, keyRow[index]]))).toMatchObject({
      actorType: 'key',
      actorId: account.keyId,
      targetType: 'key',
      targetId: viewerKeyId,
      clientAddress: '127.0.0.1',
    });
    expect(JSON.parse(keyRow[column('changes')])).toEqual({
      name: { old: null, new: 'Payroll export' },
      mode: { old: null, new: 'live' },
      role: { old: null, new: 'viewer' },
    });

    // Filtered, the link carries the filters (not the page's cursor or size), and the file holds the page's rows.
    await ownerPage.goto(`${t.baseUrl}/console/activity?actorId=${ownerId}&limit=2`);
    const filtered = (await ownerPage.getByRole('link', { name: /^Download these events as CSV/ }).getAttribute('href'))!;
    expect(filtered).toBe(`/console/activity/export.csv?actorId=${ownerId}`);
    const [filteredHeader, ...filteredRows] = readCsv(await (await ownerFetch(filtered)).text());
    expect(filteredHeader).toEqual(CSV_HEADER);
    expect(filteredRows.map((row) => row[column('id')])).toEqual(events.filter((event) => event.actor.id === ownerId).map((event) => event.id));
    expect(filteredRows).toHaveLength(4);
  });

  it("reads a log longer than one of the export's pages (500 events) whole, its chain unbroken across the pages", async () => {
    const busy = await t.createKey({ name: 'Busy Ltd' });
    const log = t.app.get(ActivityLog);
    const system = { actor: { type: 'system' as const, id: null }, clientAddress: null, userAgent: null };
    for (let quota = 1; quota <= 1000; quota += 1) {
      const changes = { monthlyQuota: { old: quota - 1, new: quota } };
      await log.append(system, { userId: busy.userId, action: 'account.quota_changed', target: { type: 'account', id: busy.userId }, changes });
    }
    const ids: string[] = [];
    for (let cursor: string | null = null; ;) {
      const listed = await request(t.baseUrl, 'GET', `/v1/activity?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { 'x-api-key': busy.key },
      });
      const body = listed.body as { events: Event[]; nextCursor: string | null };
      ids.push(...body.events.map((event) => event.id));
      if ((cursor = body.nextCursor) === null) break;
    }
    expect(ids).toHaveLength(1001);

    const session = new FormClient(t.baseUrl);
    expect((await session.signIn(busy.key)).status).toBe(303);
    const download = await session.send('GET', '/console/activity/export.csv');
    expect(download.status).toBe(200);
    const [header, ...rows] = readCsv(await download.text());
    expect(header).toEqual(CSV_HEADER);
    expect(rows.map((row) => row[0])).toEqual(ids);
    const hash = CSV_HEADER.indexOf('hash');
    const previousHash = CSV_HEADER.indexOf('previousHash');
    rows.forEach((row, index) => expect(row[previousHash]).toBe(rows[index + 1]?.[hash] ?? GENESIS_HASH));
    expect(rows[0][CSV_HEADER.indexOf('actorName')]).toBe('The service itself');
  }, 60_000);

  it('answers a compliance member and a viewer key with the forbidden page for both, and shows them no Activity link', async () => {
    for (const path of ['/console/activity', '/console/activity/export.csv']) {
      const answer = await compliance.send('GET', path);
      const html = await answer.text();
      expect([path, answer.status, html.includes(NOT_ALLOWED)]).toEqual([path, 403, true]);
    }
    const overview = await (await compliance.send('GET', '/console/overview')).text();
    expect(overview.includes('href="/console/activity"')).toBe(false);

    const viewer = new FormClient(t.baseUrl);
    expect((await viewer.signIn(viewerKey)).status).toBe(303);
    for (const path of ['/console/activity', '/console/activity/export.csv']) {
      const answer = await viewer.send('GET', path);
      expect([path, answer.status]).toEqual([path, 403]);
    }
    // A session signed in with the admin key reads it, as GET /v1/activity allows that key.
    const admin = new FormClient(t.baseUrl);
    expect((await admin.signIn(account.key)).status).toBe(303);
    const page = await admin.send('GET', '/console/activity');
    expect(page.status).toBe(200);
    expect((await page.text()).includes('href="/console/activity" aria-current="page"')).toBe(true);
  });
});
