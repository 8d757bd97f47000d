/** @topologies: runs again on a Redis Cluster and behind PgBouncer (the e2e-topologies project, jest.config.js). */
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { Webhook } from 'standardwebhooks';
import { MANUAL_SEND_INTERVAL_MS } from '../../src/webhooks/webhook-limits';
import { deliveriesSettled } from '../support/delivery-queue';
import { request, TestResponse, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver';

const CYCLE_SECONDS = 3;

interface WatchEntry {
  licenceNumber: string;
  reference: string | null;
  status: string | null;
  licence: Record<string, unknown> | null;
  state: string;
  pausedReason: string | null;
  checkedAt: string | null;
  lastChangedAt: string | null;
  expiresInDays: number | null;
}
interface FeedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

describe('monitoring: watchlists re-checked against the register, with signed webhooks', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: {
        WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1',
      },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  afterEach(() => sandbox.clearFaults());

  const call = (apiKey: string, method: string, path: string, body?: object | string): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });

  /** Waits until the register's requests for the number since `since` (epoch ms, in order) satisfy `enough`: the positive signal that re-checks ran. */
  async function askedSince(licenceNumber: string, since: number, enough: (times: number[]) => boolean): Promise<void> {
    await until(async () => ((await sandbox.times()).byLicence[licenceNumber] ?? []).filter((at) => at >= since), enough, (4 * CYCLE_SECONDS + 10) * 1000);
  }

  async function entry(apiKey: string, licenceNumber: string): Promise<WatchEntry | undefined> {
    const page = (await call(apiKey, 'GET', '/v1/watchlist?limit=1000')).body as { items: WatchEntry[] };
    return page.items.find((item) => item.licenceNumber === licenceNumber);
  }

  async function feed(apiKey: string): Promise<FeedEvent[]> {
    const response = await call(apiKey, 'GET', '/v1/events?limit=1000');
    expect(response.status).toBe(200);
    return (response.body as { events: FeedEvent[] }).events;
  }

  async function endpoint(apiKey: string, path: string, events?: string[]): Promise<{ id: string; secret: string }> {
    const response = await call(apiKey, 'POST', '/v1/webhooks', events ? { url: `${receiver.url}${path}`, events } : { url: `${receiver.url}${path}` });
    expect(response.status).toBe(201);
    const created = response.body as { id: string; secret: string };
    receiver.useSecret(path, created.secret);
    return created;
  }

  it('manages a watchlist: 201 then 200 with the reference updated, filters, pages, 204 and 404', async () => {
    const { key } = await t.createKey();
    const first = await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.expired}`, { reference: 'guard-1' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      licenceNumber: SANDBOX_NUMBERS.expired,
      reference: 'guard-1',
      addedAt: expect.any(String),
      status: null,
      licence: null,
      checkedAt: null,
      lastChangedAt: null,
      expiresInDays: null,
      state: 'ACTIVE',
      pausedReason: null,
      mode: 'live',
    });
    const again = await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.expired}`, { reference: 'guard-1b' });
    expect(again.status).toBe(200);
    expect((again.body as WatchEntry).reference).toBe('guard-1b');
    expect((await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.notFound}`)).status).toBe(201);

    expect((await call(key, 'PUT', '/v1/watchlist/12345', { reference: 'x' })).body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Licence number must be 16 digits',
    });
    expect((await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`, { reference: 'r'.repeat(101) })).body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'reference must be text of at most 100 characters',
    });
    expect((await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`, { note: 'x' })).status).toBe(400);

    // The first re-check records what the register says.
    const checked = await until(
      () => entry(key, SANDBOX_NUMBERS.expired),
      (value) => value?.status === 'FOUND',
    );
    expect(checked).toMatchObject({ licence: { status: 'Expired', surname: "O'BRIEN" }, state: 'ACTIVE' });
    expect(checked!.expiresInDays).toBeLessThan(0);
    await until(
      () => entry(key, SANDBOX_NUMBERS.notFound),
      (value) => value?.status === 'NOT_FOUND',
    );

    const byStatus = (await call(key, 'GET', '/v1/watchlist?status=expired')).body as { items: WatchEntry[] };
    expect(byStatus.items.map((item) => item.licenceNumber)).toEqual([SANDBOX_NUMBERS.expired]);
    const missing = (await call(key, 'GET', '/v1/watchlist?status=NOT_FOUND')).body as { items: WatchEntry[] };
    expect(missing.items.map((item) => item.licenceNumber)).toEqual([SANDBOX_NUMBERS.notFound]);
    expect(((await call(key, 'GET', '/v1/watchlist?expiringWithinDays=3650')).body as { items: unknown[] }).items).toEqual([]);
    const page1 = (await call(key, 'GET', '/v1/watchlist?limit=1')).body as { items: WatchEntry[]; nextCursor: string };
    expect(page1.items.map((item) => item.licenceNumber)).toEqual([SANDBOX_NUMBERS.expired]);
    const page2 = (await call(key, 'GET', `/v1/watchlist?limit=1&cursor=${page1.nextCursor}`)).body;
    expect(page2).toMatchObject({ items: [{ licenceNumber: SANDBOX_NUMBERS.notFound }], nextCursor: null });
    expect((await call(key, 'GET', '/v1/watchlist?limit=0')).body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'limit must be an integer from 1 to 1000',
    });

    expect((await call(key, 'DELETE', `/v1/watchlist/${SANDBOX_NUMBERS.notFound}`)).status).toBe(204);
    expect((await call(key, 'DELETE', `/v1/watchlist/${SANDBOX_NUMBERS.notFound}`)).body).toEqual({
      code: 'WATCH_NOT_FOUND',
      message: 'Licence number is not on the watchlist',
    });
  });

  it('charges watching like verifying: free when already counted, 429 with nothing added when the quota has no room', async () => {
    const { key, userId } = await t.createKey({ quota: 2 });
    const [a, b, c, d] = [0, 1, 2, 3].map((index) => unknownNumber(1, index));
    expect((await call(key, 'PUT', `/v1/watchlist/${a}`)).status).toBe(201);
    expect((await verify(t.baseUrl, key, b)).status).toBe(404);
    expect((await call(key, 'PUT', `/v1/watchlist/${b}`)).status).toBe(201); // verified this month: free
    expect((await call(key, 'PUT', `/v1/watchlist/${c}`)).body).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: 'Monthly verification quota exceeded; upgrade the plan to continue',
    });
    const batch = await call(key, 'POST', '/v1/watchlist:batchAdd', { items: [{ licenceNumber: a }, { licenceNumber: c }, { licenceNumber: d }] });
    expect(batch.status).toBe(429);
    expect((batch.body as { code: string }).code).toBe('QUOTA_EXCEEDED');
    const again = await call(key, 'POST', '/v1/watchlist:batchAdd', {
      items: [{ licenceNumber: a, reference: 'A' }, { licenceNumber: b }],
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ added: 0, updated: 2 });
    const { rows: entries } = await t.db.query('SELECT licence_number, reference FROM watch_entries WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(entries).toEqual([
      { licence_number: a, reference: 'A' },
      { licence_number: b, reference: null },
    ]);
    const { rows: charges } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(charges.map((row) => row.licence_number)).toEqual([a, b]);
    const { rows: usage } = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
    expect(usage).toEqual([{ used: 2 }]);

    const bad = await call(key, 'POST', '/v1/watchlist:batchAdd', { items: [{ licenceNumber: a }, { licenceNumber: '12' }] });
    expect(bad.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Row 2: licence number must be 16 digits' });
  });

  it('sends exactly one signed licence.status_changed per watching user when the register revokes a licence', async () => {
    const users = [await t.createKey(), await t.createKey()];
    const paths = ['/revoke-a', '/revoke-b'];
    for (const [index, user] of users.entries()) {
      await endpoint(user.key, paths[index]);
      expect((await call(user.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`, { reference: `user-${index}` })).status).toBe(201);
    }
    await until(
      () => entry(users[1].key, SANDBOX_NUMBERS.active),
      (value) => value?.status === 'FOUND',
    );
    await sandbox.changeLicence(SANDBOX_NUMBERS.active, { status: 'Revoked', statusReason: 'Licence revoked' });

    await until(() => paths.every((path) => receiver.to(path).length >= 1), Boolean, (CYCLE_SECONDS + 3) * 1000);
    // Two more re-checks reach the register, and their deliveries (if any) end: nothing more may come.
    await askedSince(SANDBOX_NUMBERS.active, Date.now(), (times) => times.length >= 2);
    await deliveriesSettled(t);

    for (const [index, path] of paths.entries()) {
      const received = receiver.to(path);
      expect(received.map((hook) => [hook.body.type, hook.verified])).toEqual([['licence.status_changed', true]]);
      const { data } = received[0].body;
      expect(data).toMatchObject({
        licenceNumber: SANDBOX_NUMBERS.active,
        reference: `user-${index}`,
        previous: { status: 'Active', surname: 'DOE' },
        current: { status: 'Revoked', statusReason: 'Licence revoked' },
      });
      const events = await feed(users[index].key);
      expect(events.map((event) => event.type)).toEqual(['licence.status_changed']);
      expect(events[0].id).toBe(received[0].headers['webhook-id']);
      // A live user's delivery says so in its signed body; the feed's event is that body with its id.
      expect(received[0].body.mode).toBe('live');
      expect(events[0]).toEqual({ ...received[0].body, id: events[0].id });
    }
    expect(await entry(users[0].key, SANDBOX_NUMBERS.active)).toMatchObject({ licence: { status: 'Revoked' }, lastChangedAt: expect.any(String) });
  });

  it('retries a failing receiver with the same webhook-id, logs every attempt, and a 410 disables the endpoint', async () => {
    const { key } = await t.createKey();
    const flaky = await endpoint(key, '/flaky');
    receiver.script('/flaky', [500, 500]);
    const queued = await call(key, 'POST', `/v1/webhooks/${flaky.id}/test`);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ eventType: 'ping', status: 'PENDING', attempts: [] });

    const received = await until(
      () => receiver.to('/flaky'),
      (list) => list.length === 3,
    );
    expect(received.map((hook) => [hook.answeredWith, hook.verified, hook.body.type])).toEqual([
      [500, true, 'ping'],
      [500, true, 'ping'],
      [200, true, 'ping'],
    ]);
    expect(new Set(received.map((hook) => hook.headers['webhook-id']))).toEqual(new Set([(queued.body as { eventId: string }).eventId]));

    const log = await until(
      async () => ((await call(key, 'GET', `/v1/webhooks/${flaky.id}/deliveries`)).body as { deliveries: any[] }).deliveries,
      (deliveries) => deliveries[0]?.status === 'DELIVERED',
    );
    expect(log).toHaveLength(1);
    expect(log[0].attempts.map((attempt: any) => [attempt.attempt, attempt.responseStatus, attempt.nextAttemptAt === null])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);

    // Replaying a delivery sends the same event again, under the same webhook-id. (The service clock moves
    // past the endpoint's 10 s between manual sends.)
    t.clock.travelTo(new Date(Date.now() + MANUAL_SEND_INTERVAL_MS));
    const replay = await call(key, 'POST', `/v1/webhooks/${flaky.id}/deliveries/${log[0].id}/retry`);
    t.clock.set(null);
    expect(replay.status).toBe(202);
    await until(
      () => receiver.to('/flaky'),
      (list) => list.length === 4,
    );
    expect(receiver.to('/flaky')[3].headers['webhook-id']).toBe(received[0].headers['webhook-id']);

    const gone = await endpoint(key, '/gone');
    receiver.script('/gone', [410]);
    await call(key, 'POST', `/v1/webhooks/${gone.id}/test`);
    await until(
      () => receiver.to('/gone'),
      (list) => list.length === 1,
    );
    const listed = await until(
      async () => ((await call(key, 'GET', '/v1/webhooks')).body as { webhooks: any[] }).webhooks,
      (webhooks) => webhooks.some((hook) => hook.id === gone.id && !hook.enabled),
    );
    expect(listed.find((hook) => hook.id === gone.id)).toEqual({
      id: gone.id,
      url: `${receiver.url}/gone`,
      events: expect.arrayContaining(['licence.status_changed', 'ping']),
      createdAt: expect.any(String),
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: 'GONE',
      failingSince: expect.any(String),
      mode: 'live',
    });
    await deliveriesSettled(t); // no retry after a 410: no attempt is left queued
    expect(receiver.to('/gone')).toHaveLength(1);
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const { key } = await t.createKey();
    const created = await endpoint(key, '/rotating');
    const rotated = await call(key, 'POST', `/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret } = rotated.body as { secret: string; previousSecretExpiresAt: string };
    expect(secret).toMatch(/^whsec_/);
    receiver.useSecret('/rotating', secret);
    await call(key, 'POST', `/v1/webhooks/${created.id}/test`);
    const [hook] = await until(
      () => receiver.to('/rotating'),
      (list) => list.length === 1,
    );
    expect(hook.verified).toBe(true);
    expect(hook.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(created.secret).verify(hook.raw, hook.headers)).not.toThrow();
  });

  it('concludes nothing during a register outage, and catches up in the next cycle once it is back', async () => {
    const { key } = await t.createKey();
    await endpoint(key, '/outage');
    await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.withConditions}`);
    await until(
      () => entry(key, SANDBOX_NUMBERS.withConditions),
      (value) => value?.status === 'FOUND',
    );
    await sandbox.setFault({ fault: 'status-503', licenceNumber: SANDBOX_NUMBERS.withConditions });
    await sandbox.changeLicence(SANDBOX_NUMBERS.withConditions, { status: 'Suspended' });
    // It did ask, and failed, in two re-checks a cycle apart: the first one has ended without a conclusion.
    await askedSince(
      SANDBOX_NUMBERS.withConditions,
      Date.now(),
      (times) => times.length >= 2 && times[times.length - 1] - times[0] >= CYCLE_SECONDS * 1000,
    );
    expect(await feed(key)).toEqual([]);
    expect(receiver.to('/outage')).toEqual([]);
    expect(await entry(key, SANDBOX_NUMBERS.withConditions)).toMatchObject({ status: 'FOUND', licence: { status: 'Active' } });

    await sandbox.clearFaults();
    const [event] = await until(
      () => feed(key),
      (events) => events.length > 0,
      (CYCLE_SECONDS + 3) * 1000,
    );
    expect(event).toMatchObject({ type: 'licence.status_changed', data: { previous: { status: 'Active' }, current: { status: 'Suspended' } } });
    await until(
      () => receiver.to('/outage'),
      (list: ReceivedWebhook[]) => list.length === 1,
    );
  });

  it("keeps each user's watchlist, endpoints and events to that user", async () => {
    const owner = await t.createKey();
    const other = await t.createKey();
    const hook = await endpoint(owner.key, '/owner');
    await call(owner.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.nonFrontLine}`, { reference: 'mine' });
    await call(owner.key, 'POST', `/v1/webhooks/${hook.id}/test`);
    await until(
      () => receiver.to('/owner'),
      (list) => list.length === 1,
    );
    const ownerDelivery = ((await call(owner.key, 'GET', `/v1/webhooks/${hook.id}/deliveries`)).body as { deliveries: { id: string }[] }).deliveries[0];

    expect((await call(other.key, 'GET', '/v1/watchlist')).body).toEqual({ items: [], nextCursor: null });
    expect((await call(other.key, 'DELETE', `/v1/watchlist/${SANDBOX_NUMBERS.nonFrontLine}`)).status).toBe(404);
    expect((await call(other.key, 'GET', '/v1/webhooks')).body).toEqual({ webhooks: [] });
    expect(await feed(other.key)).toEqual([]);
    const notFound = { code: 'WEBHOOK_NOT_FOUND', message: 'Webhook endpoint not found' };
    for (const [method, path] of [
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${hook.id}/test`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/v1/webhooks/${hook.id}/deliveries/${ownerDelivery.id}/retry`],
      ['GET', '/v1/webhooks/not-a-uuid/deliveries'],
    ]) {
      const response = await call(other.key, method, path);
      expect([path, response.status, response.body]).toEqual([path, 404, notFound]);
    }
    expect((await call(owner.key, 'POST', `/v1/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`)).body).toEqual({
      code: 'DELIVERY_NOT_FOUND',
      message: 'Delivery not found',
    });
    expect(((await call(owner.key, 'GET', '/v1/watchlist')).body as { items: WatchEntry[] }).items).toHaveLength(1);
    expect(((await call(owner.key, 'GET', '/v1/webhooks')).body as { webhooks: unknown[] }).webhooks).toHaveLength(1);
    expect((await feed(owner.key)).map((event) => event.type)).toEqual(['ping']);
    expect(receiver.to('/owner')).toHaveLength(1);
  });
});
