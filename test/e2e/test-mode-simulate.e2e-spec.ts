import { Queue } from 'bullmq';
import type { CreatedKey } from '../../src/auth/api-keys.service';
import { ERROR_CODES, FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../../src/errors/error-codes';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from '../../src/lookups/lookup-jobs';
import { quotaUsed, request, TestResponse, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const CYCLE_SECONDS = 30;
const ACTIVE = '4000000000000001';
const TEST_MODE_ONLY = { code: 'TEST_MODE_ONLY', message: 'This operation needs a test key' };
const BAD_BODY = { code: 'VALIDATION_ERROR', message: FEATURE_VALIDATION_MESSAGES.simulateBody };

/** 4000000000000001 as verify shows it, with these fields changed. */
const active = (change: object = {}) => ({
  licenceNumber: ACTIVE,
  firstName: 'TEST',
  surname: 'ACTIVE',
  dateOfBirth: null,
  licenceType: null,
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2030-01-01',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
  ...change,
});

describe("test mode: simulated licence changes fire the usual webhooks, in the caller's test world only", () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;
  let live: CreatedKey;
  let mine: CreatedKey;
  let theirs: CreatedKey;

  beforeAll(async () => {
    // A long cycle: every event within the tests comes from a simulated change's own re-check, not from the schedule.
    t = await startTestApp({
      withWorker: true,
      env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', HOLDER_DATA_KEY: 'e4'.repeat(32) },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
    receiver = await WebhookReceiver.start();
    live = await t.createKey({ quota: 10, name: 'live side' });
    mine = await t.createKey({ userId: live.userId, test: true });
    // Another partner, with a live key of its own: a test side is served only while its live user holds one.
    theirs = await t.createKey({ userId: (await t.createKey({ quota: 10 })).userId, test: true });
    for (const [side, path] of [
      [mine, '/mine'],
      [theirs, '/theirs'],
    ] as const) {
      const endpoint = await call(side.key, 'POST', '/v1/webhooks', { url: `${receiver.url}${path}` });
      expect(endpoint.status).toBe(201);
      receiver.useSecret(path, (endpoint.body as { secret: string }).secret);
      expect((await call(side.key, 'PUT', `/v1/watchlist/${ACTIVE}`, { reference: path })).status).toBe(201);
      await until(
        async () => ((await call(side.key, 'GET', '/v1/watchlist')).body as { items: { checkedAt: string | null }[] }).items[0].checkedAt,
        (checkedAt) => checkedAt !== null,
      );
    }
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const used = (key: string): Promise<number> => quotaUsed(t.baseUrl, key);
  const call = (key: string, method: string, path: string, body?: object | string, headers: Record<string, string> = {}): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': key, ...headers }, body });
  const simulate = (key: string, licenceNumber: string, body?: object | string) =>
    call(key, 'POST', `/v1/test/licences/${licenceNumber}`, body, typeof body === 'string' ? { 'content-type': 'application/json' } : {});
  const of = (path: string, type: string): ReceivedWebhook[] => receiver.to(path).filter((webhook) => webhook.body.type === type);
  const licenceOf = (response: TestResponse) => (response.body as { licence: unknown }).licence;

  it('delivers a signed licence.status_changed from a simulated revoke before the next cycle, to that user only', async () => {
    // Cached before the change: the next verification must not answer from it.
    expect(licenceOf(await verify(t.baseUrl, mine.key, ACTIVE))).toEqual(active());
    const usedBefore = await used(mine.key);

    const changed = await simulate(mine.key, ACTIVE, { status: 'Revoked', statusReason: 'Revoked in a test' });
    const simulated = Date.now();
    expect([changed.status, changed.body]).toEqual([200, { status: 'FOUND', licence: active({ status: 'Revoked', statusReason: 'Revoked in a test' }) }]);
    const [event] = await until(
      () => of('/mine', 'licence.status_changed'),
      (events) => events.length > 0,
      // Well inside the cycle: the event comes from the change's own re-check, not from the schedule.
      CYCLE_SECONDS * 500,
    );
    expect(event.verified).toBe(true);
    // A test side's delivery says so in the signed body, as the feed says of the same event.
    expect(event.body.mode).toBe('test');
    const feed = await call(mine.key, 'GET', '/v1/events');
    const inFeed = (feed.body as { events: { id: string; mode: string }[] }).events.filter((fed) => fed.id === event.headers['webhook-id']);
    expect(inFeed.map((fed) => fed.mode)).toEqual(['test']);
    expect(event.body.data).toEqual({
      licenceNumber: ACTIVE,
      reference: '/mine',
      previous: active(),
      current: active({ status: 'Revoked', statusReason: 'Revoked in a test' }),
    });
    expect(licenceOf(await verify(t.baseUrl, mine.key, ACTIVE))).toEqual(active({ status: 'Revoked', statusReason: 'Revoked in a test' }));
    // The simulate call is free.
    expect(await used(mine.key)).toBe(usedBefore);

    // The other test user's world never sees it: its own scheduled re-check of the number runs after the change
    // (the positive signal; it would have recorded the event in the same transaction) and finds nothing new.
    await until(
      async () => ((await call(theirs.key, 'GET', '/v1/watchlist')).body as { items: { checkedAt: string | null }[] }).items[0].checkedAt,
      (checkedAt) => checkedAt !== null && Date.parse(checkedAt) > simulated,
      2 * CYCLE_SECONDS * 1000,
    );
    const theirFeed = await call(theirs.key, 'GET', '/v1/events');
    expect((theirFeed.body as { events: { type: string }[] }).events.filter((fed) => fed.type === 'licence.status_changed')).toEqual([]);
    expect(receiver.to('/theirs')).toEqual([]);
    expect(licenceOf(await verify(t.baseUrl, theirs.key, ACTIVE))).toEqual(active());
    const { rows } = await t.db.query(`SELECT world FROM licence_states WHERE licence_number = $1 ORDER BY world`, [ACTIVE]);
    expect(rows.map((row) => row.world).sort()).toEqual([mine.userId, theirs.userId].sort());
  }, 120_000);

  it('restores the licence with DELETE, with the event that the change back makes', async () => {
    const restored = await call(mine.key, 'DELETE', `/v1/test/licences/${ACTIVE}`);
    expect([restored.status, restored.body]).toEqual([200, { status: 'FOUND', licence: active() }]);
    const events = await until(
      () => of('/mine', 'licence.status_changed'),
      (received) => received.length === 2,
      10_000,
    );
    expect(events[1].verified).toBe(true);
    expect(events[1].body.data).toEqual({
      licenceNumber: ACTIVE,
      reference: '/mine',
      previous: active({ status: 'Revoked', statusReason: 'Revoked in a test' }),
      current: active(),
    });
    expect(licenceOf(await verify(t.baseUrl, mine.key, ACTIVE))).toEqual(active());
    expect(receiver.to('/theirs')).toEqual([]);

    // A number the test register did not know answers NOT_FOUND again once restored.
    const created = await simulate(mine.key, '4100000000000077', {});
    expect([created.status, (created.body as { licence: { surname: string; status: string } }).licence]).toEqual([
      200,
      expect.objectContaining({ licenceNumber: '4100000000000077', firstName: 'TEST', surname: 'HOLDER', status: 'Active' }),
    ]);
    expect((await verify(t.baseUrl, mine.key, '4100000000000077')).status).toBe(200);
    expect((await call(mine.key, 'DELETE', '/v1/test/licences/4100000000000077')).body).toEqual({ status: 'NOT_FOUND', licence: null });
    expect((await verify(t.baseUrl, mine.key, '4100000000000077')).status).toBe(404);
  }, 30_000);

  it('creates the successor Active with the same holder, so that followSuccessor watchers get licence.replaced naming it', async () => {
    const OLD = '4100000000000011';
    const NEW = '4100000000000029';
    expect((await simulate(mine.key, OLD, {})).status).toBe(200);
    const watch = await call(mine.key, 'PUT', `/v1/watchlist/${OLD}`, {
      reference: 'follow',
      holder: { firstName: 'Test', surname: 'Holder', dateOfBirth: '1990-01-01' },
      followSuccessor: true,
    });
    expect(watch.status).toBe(201);
    await until(
      async () => ((await call(mine.key, 'GET', '/v1/watchlist')).body as { items: { licenceNumber: string; checkedAt: string | null }[] }).items,
      (items) => items.some((item) => item.licenceNumber === OLD && item.checkedAt !== null),
    );

    const replaced = await simulate(mine.key, OLD, { status: 'Replaced', successorLicenceNumber: NEW });
    expect([replaced.status, (replaced.body as { licence: { status: string } }).licence.status]).toEqual([200, 'Replaced']);
    const [event, ...more] = await until(
      () => of('/mine', 'licence.replaced'),
      (events) => events.length > 0,
      CYCLE_SECONDS * 500,
    );
    expect(more).toEqual([]);
    expect(event.verified).toBe(true);
    expect(event.body.data).toEqual(
      expect.objectContaining({ licenceNumber: OLD, reference: 'follow', successorLicenceNumber: NEW, confidence: 'NAME_AND_DATE_OF_BIRTH' }),
    );
    const successor = await verify(t.baseUrl, mine.key, NEW);
    expect(licenceOf(successor)).toEqual(expect.objectContaining({ licenceNumber: NEW, firstName: 'TEST', surname: 'HOLDER', status: 'Active' }));
    await until(
      async () => ((await call(mine.key, 'GET', '/v1/watchlist')).body as { items: { licenceNumber: string }[] }).items.map((item) => item.licenceNumber),
      (numbers) => numbers.includes(NEW),
    );
    // Nobody else's world has either number.
    expect((await verify(t.baseUrl, theirs.key, NEW)).status).toBe(404);
  }, 30_000);

  it('sends licence.expiring before the next cycle when a simulated change brings the expiry date near', async () => {
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const changed = await simulate(theirs.key, ACTIVE, { expiryDate: soon });
    expect([changed.status, changed.body]).toEqual([200, { status: 'FOUND', licence: active({ expiryDate: soon }) }]);
    const [event] = await until(
      () => of('/theirs', 'licence.expiring'),
      (events) => events.length > 0,
      CYCLE_SECONDS * 500,
    );
    expect(event.verified).toBe(true);
    expect(event.body.mode).toBe('test');
    expect(event.body.data).toEqual({
      licenceNumber: ACTIVE,
      reference: '/theirs',
      previous: active(),
      current: active({ expiryDate: soon }),
      daysLeft: 10,
    });
    expect(of('/mine', 'licence.expiring')).toEqual([]);
  }, 30_000);

  it('refuses a live key 403 TEST_MODE_ONLY, whatever its body, with no charge, no job and nothing written', async () => {
    const jobsBefore = await lookupJobs();
    for (const [method, body] of [
      ['POST', { status: 'Revoked' }],
      ['POST', { colour: 'blue' }],
      ['POST', '{not json'],
      ['DELETE', undefined],
    ] as const) {
      const response = method === 'POST' ? await simulate(live.key, ACTIVE, body) : await call(live.key, 'DELETE', `/v1/test/licences/${ACTIVE}`);
      expect([method, body, response.status, response.body]).toEqual([method, body, 403, TEST_MODE_ONLY]);
    }
    expect((await call(live.key, 'POST', '/v1/test/licences/123', { status: 'Revoked' })).status).toBe(403);
    expect(ERROR_CODES.TEST_MODE_ONLY).toEqual({ status: 403, message: TEST_MODE_ONLY.message });
    expect(await used(live.key)).toBe(0);
    expect((await t.db.query('SELECT count(*)::int AS count FROM test_licences WHERE user_id = $1', [live.userId])).rows[0].count).toBe(0);
    expect((await sandbox.counts()).total).toBe(0);
    expect(await lookupJobs()).toBe(jobsBefore);
  });

  it('answers a bad body 400 VALIDATION_ERROR, with nothing changed, charged or queued', async () => {
    const usedBefore = await used(mine.key);
    const jobsBefore = await lookupJobs();
    const before = (await t.db.query('SELECT count(*)::int AS count FROM test_licences')).rows[0].count as number;
    for (const body of [
      { colour: 'blue' },
      { status: 5 },
      { status: null },
      { status: '' },
      { statusReason: 'x'.repeat(201) },
      { expiryDate: '2026-02-31' },
      { expiryDate: '10/12/2026' },
      { successorLicenceNumber: '123' },
      { successorLicenceNumber: ACTIVE },
    ]) {
      const response = await simulate(mine.key, ACTIVE, body);
      expect([body, response.status, response.body]).toEqual([body, 400, BAD_BODY]);
    }
    expect((await simulate(mine.key, ACTIVE, '{not json')).body).toEqual({ code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGES.invalidJson });
    expect((await simulate(mine.key, '123', { status: 'Revoked' })).body).toEqual({
      code: 'VALIDATION_ERROR',
      message: VALIDATION_MESSAGES.licenceNumber,
    });
    expect((await t.db.query('SELECT count(*)::int AS count FROM test_licences')).rows[0].count).toBe(before);
    expect(await used(mine.key)).toBe(usedBefore);
    expect(await lookupJobs()).toBe(jobsBefore);
  });

  /** Every lookup job the queues (live and test) hold, finished ones included. */
  async function lookupJobs(): Promise<number> {
    const counts = await Promise.all(
      [REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE].map(async (name) => {
        const queue = new Queue(name, { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
        try {
          return await queue.getJobCountByTypes('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed');
        } finally {
          await queue.close();
        }
      }),
    );
    return counts[0] + counts[1];
  }
});
