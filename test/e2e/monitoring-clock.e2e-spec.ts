import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import type { TestingModule } from '@nestjs/testing';
import { request, TestResponse } from '../support/http';
import { startInProcessWorker } from '../support/in-process-worker';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const CYCLE_SECONDS = 1;

interface FeedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

// The worker runs in this process so that it shares the test's clock: expiry warnings, quota
// periods and how long a webhook endpoint has been failing follow the date the test sets.
describe('monitoring over time: expiry warnings and quota periods, on the test clock', () => {
  let t: TestApp;
  let worker: TestingModule;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        // Room to move the clock between two attempts; more attempts than the test lets happen.
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,3,3,3,3,3,3,3',
      },
    });
    worker = await startInProcessWorker(t.clock);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await receiver.close();
  });
  afterEach(() => t.clock.set(null));

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });
  const feed = async (apiKey: string): Promise<FeedEvent[]> =>
    ((await call(apiKey, 'GET', '/v1/events?limit=1000')).body as { events: FeedEvent[] }).events;

  it('warns once each at 60, 30, 7 and 1 days before expiry (JANE DOE expires 2027-06-06)', async () => {
    const { key } = await t.createKey();
    const expiring = async () => (await feed(key)).filter((event) => event.type === 'licence.expiring');

    t.clock.travelTo('2027-03-01T09:00:00Z'); // 97 days: nothing yet
    expect((await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`, { reference: 'door-7' })).status).toBe(201);
    await until(
      async () => (await call(key, 'GET', '/v1/watchlist')).body as { items: { status: string | null }[] },
      (page) => page.items[0].status === 'FOUND',
    );
    await sleep(3 * CYCLE_SECONDS * 1000);
    expect(await expiring()).toEqual([]);

    // Each step's warnings, by the day they were sent on (events older than 30 days leave the feed).
    const sentOn = async (date: string) => (await expiring()).filter((event) => event.timestamp.startsWith(date.slice(0, 10)));
    const warnings: FeedEvent[] = [];
    for (const [date, expected] of [
      ['2027-04-07T09:00:00Z', 1], // 60 days
      ['2027-04-20T09:00:00Z', 0], // 47 days: nothing new
      ['2027-05-07T09:00:00Z', 1], // 30 days
      ['2027-05-30T09:00:00Z', 1], // 7 days
      ['2027-06-05T09:00:00Z', 1], // 1 day
    ] as const) {
      t.clock.travelTo(date);
      await until(
        () => sentOn(date),
        (events) => events.length === expected,
        10_000,
      );
      await sleep(3 * CYCLE_SECONDS * 1000); // several more cycles on the same day: no repeat
      const events = await sentOn(date);
      expect(events).toHaveLength(expected);
      warnings.push(...events);
    }
    expect(warnings.map((event) => event.data.daysLeft)).toEqual([60, 30, 7, 1]);
    expect(warnings[0].data).toMatchObject({
      licenceNumber: SANDBOX_NUMBERS.active,
      reference: 'door-7',
      current: { expiryDate: '2027-06-06', status: 'Active' },
    });
    expect((await feed(key)).filter((event) => event.type !== 'licence.expiring')).toEqual([]);
  });

  it('charges watched numbers again in a new month, pauses what does not fit and resumes when there is room', async () => {
    const { key, userId } = await t.createKey({ quota: 2 });
    const numbers = [unknownNumber(3, 0), unknownNumber(3, 1)];
    t.clock.travelTo('2026-11-20T12:00:00Z');
    const added = await call(key, 'POST', '/v1/watchlist:batchAdd', { items: numbers.map((licenceNumber) => ({ licenceNumber })) });
    expect(added.body).toEqual({ added: 2, updated: 0 });
    const charges = async (period: string) =>
      (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 AND period = $2 ORDER BY 1', [userId, period])).rows.map(
        (row) => row.licence_number as string,
      );
    const states = async () =>
      (await t.db.query('SELECT state, paused_reason FROM watch_entries WHERE user_id = $1 ORDER BY licence_number', [userId])).rows;
    expect(await charges('2026-11')).toEqual(numbers);

    // December, with room for one number only: the first re-check of each charges it, or pauses it.
    await t.db.query('UPDATE users SET monthly_quota = 1 WHERE id = $1', [userId]);
    t.clock.travelTo('2026-12-02T12:00:00Z');
    await until(feed.bind(null, key), (events) => events.some((event) => event.type === 'watch.paused'), 10_000);
    await sleep(3 * CYCLE_SECONDS * 1000);
    expect((await feed(key)).map((event) => event.type)).toEqual(['watch.paused']);
    expect(await charges('2026-12')).toHaveLength(1);
    expect(await states()).toEqual(
      expect.arrayContaining([
        { state: 'ACTIVE', paused_reason: null },
        { state: 'PAUSED', paused_reason: 'QUOTA_EXCEEDED' },
      ]),
    );
    const paused = (await feed(key))[0];
    expect(paused.data).toEqual({ licenceNumber: expect.any(String), reference: null, reason: 'QUOTA_EXCEEDED' });
    const page = (await call(key, 'GET', '/v1/watchlist')).body as { items: { licenceNumber: string; state: string; pausedReason: string | null }[] };
    expect(page.items.find((item) => item.licenceNumber === paused.data.licenceNumber)).toMatchObject({ state: 'PAUSED', pausedReason: 'QUOTA_EXCEEDED' });

    // set-quota raises the plan: the paused number is charged at its next re-check and resumes.
    await t.db.query('UPDATE users SET monthly_quota = 2 WHERE id = $1', [userId]);
    await until(feed.bind(null, key), (events) => events.some((event) => event.type === 'watch.resumed'), 10_000);
    expect((await feed(key)).map((event) => event.type)).toEqual(['watch.paused', 'watch.resumed']);
    expect(await charges('2026-12')).toEqual(numbers);
    expect(await states()).toEqual([
      { state: 'ACTIVE', paused_reason: null },
      { state: 'ACTIVE', paused_reason: null },
    ]);
    const { rows: usage } = await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1 ORDER BY period', [userId]);
    expect(usage).toEqual([
      { period: '2026-11', used: 2 },
      { period: '2026-12', used: 2 },
    ]);
  });

  it('disables an endpoint that has failed for 3 days, and the user sees it in GET /v1/webhooks', async () => {
    const { key } = await t.createKey();
    receiver.script(
      '/down',
      Array.from({ length: 8 }, () => 500),
    );
    const firstFailure = '2026-11-23T08:00:00Z';
    t.clock.travelTo(firstFailure);
    const created = await call(key, 'POST', '/v1/webhooks', { url: `${receiver.url}/down` });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect((await call(key, 'POST', `/v1/webhooks/${id}/test`)).status).toBe(202);
    const listed = async () => ((await call(key, 'GET', '/v1/webhooks')).body as { webhooks: Record<string, unknown>[] }).webhooks;

    // Each attempt is 3 s after the previous one: the clock moves on a day, then two more.
    await until(
      () => receiver.to('/down'),
      (received) => received.length === 1,
      10_000,
    );
    t.clock.travelTo('2026-11-24T08:00:00Z');
    await until(
      () => receiver.to('/down'),
      (received) => received.length === 2,
      10_000,
    );
    expect(await listed()).toEqual([
      expect.objectContaining({ id, enabled: true, disabledAt: null, disabledReason: null, failingSince: expect.stringMatching(/^2026-11-23T08:00:0/) }),
    ]);
    t.clock.travelTo('2026-11-26T08:00:05Z'); // 3 days after the first failure
    await until(
      () => receiver.to('/down'),
      (received) => received.length === 3,
      10_000,
    );
    const disabled = await until(listed, (webhooks) => webhooks[0]?.enabled === false, 10_000);
    expect(disabled).toEqual([
      {
        id,
        url: `${receiver.url}/down`,
        events: expect.any(Array),
        createdAt: expect.stringMatching(/^2026-11-23T08:00:0/),
        enabled: false,
        disabledAt: expect.stringMatching(/^2026-11-26T08:00:/),
        disabledReason: 'FAILING_FOR_3_DAYS',
        failingSince: expect.stringMatching(/^2026-11-23T08:00:0/),
        mode: 'live',
      },
    ]);

    await sleep(4000); // the schedule had attempts left: none is made
    // (Not checked with standardwebhooks here: it holds the test clock's timestamps against the real clock.)
    expect(receiver.to('/down').map((hook) => [hook.answeredWith, hook.headers['webhook-id']])).toEqual(
      Array.from({ length: 3 }, () => [500, receiver.to('/down')[0].headers['webhook-id']]),
    );
    const [delivery] = ((await call(key, 'GET', `/v1/webhooks/${id}/deliveries`)).body as { deliveries: any[] }).deliveries;
    expect(delivery.status).toBe('FAILED');
    expect(delivery.attempts.map((attempt: any) => [attempt.attempt, attempt.responseStatus, attempt.nextAttemptAt === null])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, true],
    ]);
  });
});
