import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { SandboxAdmin, sandboxPerson } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const CYCLE_SECONDS = 1;
// The second attempt of a delivery comes 6 s after the first: time enough to disable its user in between
// (the command-line tool starts a Nest context, which takes seconds on a busy machine).
const RETRY_SCHEDULE = '0,6,6';
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };

describe('stopping a partner: keys disable-user and enable-user, with two API processes and a worker', () => {
  let t: TestApp;
  let apis: ApiProcess[];
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: RETRY_SCHEDULE },
    });
    apis = await Promise.all([ApiProcess.start(t.env), ApiProcess.start(t.env)]);
    sandbox = new SandboxAdmin(t.sandbox.url);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await t.close();
    await receiver.close();
  });

  const call = (baseUrl: string, apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });
  const usageOnEveryApi = (apiKey: string) => Promise.all(apis.map((api) => call(api.baseUrl, apiKey, 'GET', '/v1/quota/usage')));
  const statuses = (answers: TestResponse[]) => answers.map((answer) => answer.status);
  const eventCount = async (userId: string) => Number((await t.db.query('SELECT count(*)::int AS n FROM events WHERE user_id = $1', [userId])).rows[0].n);
  const deliveryRows = async (endpointId: string) =>
    (
      await t.db.query(
        `SELECT d.status, d.held_at IS NOT NULL AS held, (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
         FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.created_at`,
        [endpointId],
      )
    ).rows as { status: string; held: boolean; attempts: number }[];

  it('refuses the keys at once on every API process, stops re-checks and deliveries, and enable-user brings them all back', async () => {
    const stopped = await t.createKey({ name: 'stopped partner' });
    const other = await t.createKey({ name: 'other partner' });
    const [apiA, apiB] = apis;

    // The stopped partner watches one number with a webhook endpoint; the other partner another number.
    expect((await call(apiA.baseUrl, stopped.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`)).status).toBe(201);
    expect((await call(apiB.baseUrl, other.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.expired}`)).status).toBe(201);
    const created = await call(apiA.baseUrl, stopped.key, 'POST', '/v1/webhooks', { url: `${receiver.url}/stopped` });
    expect(created.status).toBe(201);
    const endpoint = created.body as { id: string; secret: string };
    receiver.useSecret('/stopped', endpoint.secret);
    await until(
      async () => (await t.db.query('SELECT count(*)::int AS n FROM licence_states WHERE checked_at IS NOT NULL')).rows[0].n,
      (n) => n === 2,
    );

    // Both processes know both keys (cached), and a ping's first attempt fails, so its second is due 6 s later.
    expect(statuses([...(await usageOnEveryApi(stopped.key)), ...(await usageOnEveryApi(other.key))])).toEqual([200, 200, 200, 200]);
    receiver.script('/stopped', [500]);
    expect((await call(apiB.baseUrl, stopped.key, 'POST', `/v1/webhooks/${endpoint.id}/test`)).status).toBe(202);
    await until(
      () => receiver.to('/stopped'),
      (received) => received.length === 1,
    );

    const disabled = await runAdminCli(t.env, 'disable-user', stopped.userId);
    const disabledAt = Date.now();
    expect([disabled.status, disabled.stderr]).toEqual([0, '']);
    expect(JSON.parse(disabled.stdout)).toEqual({ userId: stopped.userId, disabledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const refused = await until(
      () => usageOnEveryApi(stopped.key),
      (answers) => answers.every((answer) => answer.status === 401),
      1000,
    );
    expect(Date.now() - disabledAt).toBeLessThan(1000);
    expect(refused.map((answer) => answer.body)).toEqual([UNAUTHORIZED, UNAUTHORIZED]);
    expect(statuses(await usageOnEveryApi(other.key))).toEqual([200, 200]);

    // A change at the register would now be an event and a delivery, if the number were re-checked.
    await sandbox.changeLicence(SANDBOX_NUMBERS.active, { status: 'Revoked', statusReason: 'Licence revoked' });
    await sandbox.resetCounts();
    const eventsBefore = await eventCount(stopped.userId);
    const usageBefore = (await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1', [stopped.userId])).rows;
    // Cycles ran (the other partner's number was re-checked twice since, however slow the machine), and none
    // re-checked the stopped partner's.
    await until(
      () => sandbox.requestsFor(SANDBOX_NUMBERS.expired),
      (requests) => requests >= 2,
      30_000,
    );
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.active)).toBe(0);
    expect(await eventCount(stopped.userId)).toBe(eventsBefore);
    expect((await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1', [stopped.userId])).rows).toEqual(usageBefore);
    // The ping's second attempt comes due: held, not attempted and not failed.
    expect(
      await until(
        () => deliveryRows(endpoint.id),
        (rows) => rows[0].held,
        10_000,
      ),
    ).toEqual([{ status: 'PENDING', held: true, attempts: 1 }]);
    expect(receiver.to('/stopped')).toHaveLength(1);
    // Nothing of the partner was deleted.
    const kept = await t.db.query(
      `SELECT (SELECT count(*)::int FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL) AS keys,
              (SELECT count(*)::int FROM watch_entries WHERE user_id = $1 AND state = 'ACTIVE') AS watched,
              (SELECT count(*)::int FROM webhook_endpoints WHERE user_id = $1 AND disabled_at IS NULL) AS endpoints`,
      [stopped.userId],
    );
    expect(kept.rows).toEqual([{ keys: 1, watched: 1, endpoints: 1 }]);

    const enabled = await runAdminCli(t.env, 'enable-user', stopped.userId);
    const enabledAt = Date.now();
    expect([enabled.status, JSON.parse(enabled.stdout)]).toEqual([0, { userId: stopped.userId, disabledAt: null }]);
    await until(
      () => usageOnEveryApi(stopped.key),
      (answers) => answers.every((answer) => answer.status === 200),
      1000,
    );
    expect(Date.now() - enabledAt).toBeLessThan(1000);

    // The held ping goes out, and the re-check finds the revocation and sends it.
    const received = await until(
      () => receiver.to('/stopped'),
      (list) => list.some((hook) => hook.body.type === 'licence.status_changed') && list.filter((hook) => hook.body.type === 'ping').length === 2,
      10_000,
    );
    expect(received.every((hook) => hook.verified)).toBe(true);
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.active)).toBeGreaterThanOrEqual(1);
    const deliveries = await until(
      () => deliveryRows(endpoint.id),
      (rows) => rows.every((row) => row.status === 'DELIVERED'),
    );
    expect(deliveries).toEqual([
      { status: 'DELIVERED', held: false, attempts: 2 },
      { status: 'DELIVERED', held: false, attempts: 1 },
    ]);
  });

  it('treats a user whose keys are all revoked as disabled: no re-check, charge or delivery until it holds a key again', async () => {
    const keyless = await t.createKey({ name: 'keyless partner' });
    const other = await t.createKey({ name: 'busy partner' });
    const [api] = apis;
    const [WATCHED, OTHERS] = ['1360000000000011', '1360000000000029'];
    for (const licenceNumber of [WATCHED, OTHERS]) {
      await sandbox.addLicence(sandboxPerson(licenceNumber, 'ALEX', `KEYLESS${licenceNumber.slice(-2)}`, '1980-01-01'));
    }
    expect((await call(api.baseUrl, keyless.key, 'PUT', `/v1/watchlist/${WATCHED}`)).status).toBe(201);
    expect((await call(api.baseUrl, other.key, 'PUT', `/v1/watchlist/${OTHERS}`)).status).toBe(201);
    const created = await call(api.baseUrl, keyless.key, 'POST', '/v1/webhooks', { url: `${receiver.url}/keyless` });
    expect(created.status).toBe(201);
    const endpoint = created.body as { id: string; secret: string };
    receiver.useSecret('/keyless', endpoint.secret);
    const checked = async (licenceNumber: string) =>
      (await t.db.query('SELECT checked_at FROM licence_states WHERE licence_number = $1', [licenceNumber])).rows[0]?.checked_at ?? null;
    await until(
      async () => [await checked(WATCHED), await checked(OTHERS)],
      (times) => times.every((time) => time !== null),
    );
    receiver.script('/keyless', [500]);
    expect((await call(api.baseUrl, keyless.key, 'POST', `/v1/webhooks/${endpoint.id}/test`)).status).toBe(202);
    await until(
      () => receiver.to('/keyless'),
      (received) => received.length === 1,
    );

    // The partner revokes its only key with itself: nobody can read its results any more.
    expect((await call(api.baseUrl, keyless.key, 'DELETE', `/v1/keys/${keyless.keyId}`)).status).toBe(204);
    await sandbox.changeLicence(WATCHED, { status: 'Revoked', statusReason: 'Licence revoked' });
    await sandbox.resetCounts();
    const eventsBefore = await eventCount(keyless.userId);
    const usageBefore = (await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1', [keyless.userId])).rows;
    // Two re-checks of the other partner's number: the cycles ran, and never took the keyless partner's.
    await until(
      () => sandbox.requestsFor(OTHERS),
      (requests) => requests >= 2,
      15_000,
    );
    expect(await sandbox.requestsFor(WATCHED)).toBe(0);
    expect(await eventCount(keyless.userId)).toBe(eventsBefore);
    expect((await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1', [keyless.userId])).rows).toEqual(usageBefore);
    expect(
      await until(
        () => deliveryRows(endpoint.id),
        (rows) => rows[0].held,
        10_000,
      ),
    ).toEqual([{ status: 'PENDING', held: true, attempts: 1 }]);
    expect(receiver.to('/keyless')).toHaveLength(1);

    // The operator issues a key again: the held ping goes out, and the re-check finds the revocation and sends it.
    const again = await runAdminCli(t.env, 'create', '--name', 'again', '--user', keyless.userId);
    expect(again.status).toBe(0);
    const received = await until(
      () => receiver.to('/keyless'),
      (list) => list.some((hook) => hook.body.type === 'licence.status_changed') && list.filter((hook) => hook.body.type === 'ping').length === 2,
      10_000,
    );
    expect(received.every((hook) => hook.verified)).toBe(true);
    expect(await sandbox.requestsFor(WATCHED)).toBeGreaterThanOrEqual(1);
  });

  it('answers an unknown user with exit status 2 and changes nothing', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const command of ['disable-user', 'enable-user']) {
      const result = await runAdminCli(t.env, command, unknown);
      expect([command, result.status, result.stdout, result.stderr.trim()]).toEqual([command, 2, '', `No user ${unknown}`]);
    }
  });
});
