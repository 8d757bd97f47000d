import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { columnsNamingIn, redisText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
/** A test mode number: FOUND, Active (docs/api.md, Test mode). */
const TEST_ACTIVE = '4000000000000001';

/** Signs in to the console with a key, as a browser would, and keeps its cookies. */
async function consoleSession(baseUrl: string, apiKey: string): Promise<string> {
  const page = await fetch(`${baseUrl}/console/sign-in`);
  const cookies = page.headers.getSetCookie().map((line) => line.split(';')[0]);
  const _csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
  const signedIn = await fetch(`${baseUrl}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl, cookie: cookies.join('; ') },
    body: new URLSearchParams({ _csrf, apiKey }).toString(),
  });
  expect(signedIn.status).toBe(303);
  return [...cookies, ...signedIn.headers.getSetCookie().map((line) => line.split(';')[0])].join('; ');
}

/**
 * Offboarding a partner with `admin delete-user`, on the real app, worker and command: a user with rows in every
 * table that holds a user's data and keys in Redis is deleted, and afterwards no column of any table and no Redis
 * key or value under the test's prefix names it, while another user keeps everything.
 */
describe('admin delete-user', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WATCH_RECHECK_SECONDS: '2' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const call = (apiKey: string, method: string, path: string, body?: object, headers: Record<string, string> = {}): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey, ...headers }, body });

  /** A user with data in every table a user's data goes to: keys, charges, usage, batches, watch entries, endpoints, events, deliveries. */
  async function partnerWithEverything(path: string) {
    const owner = await t.createKey({ quota: 100 });
    const verified = await call(
      owner.key,
      'POST',
      '/v1/licences/verify',
      { licenceNumber: SANDBOX_NUMBERS.active },
      { 'idempotency-key': `${path}-verify` },
    );
    expect(verified.status).toBe(200);
    const second = await call(owner.key, 'POST', '/v1/keys', { name: 'second' });
    expect(second.status).toBe(201);
    const batch = await call(owner.key, 'POST', '/v1/batches', {
      items: [{ licenceNumber: SANDBOX_NUMBERS.renewedNew, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' }],
    });
    expect([200, 202]).toContain(batch.status);
    const watched = await call(owner.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.expired}`, { reference: path });
    expect(watched.status).toBe(201);
    const endpoint = await call(owner.key, 'POST', '/v1/webhooks', { url: `${receiver.url}${path}` });
    expect(endpoint.status).toBe(201);
    receiver.useSecret(path, (endpoint.body as { secret: string }).secret);
    const ping = await call(owner.key, 'POST', `/v1/webhooks/${(endpoint.body as { id: string }).id}/test`);
    expect(ping.status).toBe(202);
    await until(
      async () =>
        (
          await t.db.query<{ done: boolean }>(
            `SELECT (SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
                   JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.user_id = $1) > 0
            AND (SELECT bool_and(status <> 'RUNNING') FROM batches WHERE user_id = $1) AS done`,
            [owner.userId],
          )
        ).rows[0].done,
      (done) => done,
      20_000,
    );
    // A test key's lookup: its BullMQ job's hash names the test side, and stays after the job completes.
    const testKey = await t.createKey({ test: true, userId: owner.userId, name: 'test' });
    const tested = await call(testKey.key, 'POST', '/v1/licences/verify', { licenceNumber: TEST_ACTIVE }, { 'idempotency-key': `${path}-test` });
    expect(tested.status).toBe(200);
    await until(
      async () =>
        (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM verification_records WHERE user_id = ANY ($1)', [[owner.userId, testKey.userId]]))
          .rows[0].n,
      (n) => n >= 2,
      20_000,
    );
    const session = await consoleSession(t.baseUrl, owner.key);
    return { ...owner, testSideId: testKey.userId, secondKey: (second.body as { key: string }).key, session };
  }

  /** The job hashes under the test's BullMQ prefix whose data names `needle`. */
  async function jobHashesNaming(needle: string): Promise<string[]> {
    const naming: string[] = [];
    for (const key of await t.redis.keys(`${t.redisPrefix}:bull:*`)) {
      if ((await t.redis.type(key)) !== 'hash') continue;
      const data = await t.redis.hget(key, 'data');
      if (data?.includes(needle)) naming.push(key);
    }
    return naming;
  }

  /**
   * Sends requests with the key one after another until `done`, alternating verify (a new record each, under a new
   * idempotency key) and usage; every status, in order, with when its request was sent.
   */
  async function keepCalling(apiKey: string, done: () => boolean): Promise<{ sentAt: number; status: number }[]> {
    const answers: { sentAt: number; status: number }[] = [];
    for (let n = 0; !done(); n++) {
      const sentAt = Date.now();
      const response =
        n % 2 === 0
          ? await call(apiKey, 'POST', '/v1/licences/verify', { licenceNumber: SANDBOX_NUMBERS.active }, { 'idempotency-key': `during-${n}` })
          : await call(apiKey, 'GET', '/v1/quota/usage');
      answers.push({ sentAt, status: response.status });
    }
    return answers;
  }

  /** When the user's row first read as disabled or gone, polled until `done`. */
  async function whenStopped(userId: string, done: () => boolean): Promise<number | null> {
    while (!done()) {
      const { rows } = await t.db.query<{ stopped: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM users WHERE id = $1 AND disabled_at IS NULL) AS stopped', [
        userId,
      ]);
      if (rows[0].stopped) return Date.now();
      await sleep(20);
    }
    return null;
  }

  const columnsNaming = (needle: string): Promise<string[]> => columnsNamingIn(t.db, needle);

  it('refuses without --confirm, saying what it would delete, and deletes nothing', async () => {
    const { userId, key } = await t.createKey({ name: 'kept' });
    const refused = await runAdminCli(t.env, 'delete-user', userId);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `delete-user deletes user ${userId} for good, with apiKeys 1, batches 0, batchItems 0, watchEntries 0, webhookEndpoints 0, webhookDeliveries 0, webhookAttempts 0, events 0, quotaCharges 0, quotaUsage 0, verificationRecords 0, activityEvents 1 and its Redis keys: export first, then add --confirm`,
    );
    expect((await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect(await columnsNaming(userId)).toEqual(['activity_chains.user_id', 'activity_events.user_id', 'api_keys.user_id', 'users.id']);
  });

  it('answers an unknown user with exit status 2, confirmed or not', async () => {
    for (const args of [['00000000-0000-4000-8000-000000000000'], ['00000000-0000-4000-8000-000000000000', '--confirm']]) {
      const result = await runAdminCli(t.env, 'delete-user', ...args);
      expect([result.status, result.stdout, result.stderr.split('\n')[0]]).toEqual([2, '', 'No user 00000000-0000-4000-8000-000000000000']);
    }
  });

  it('deletes a user and everything of theirs, leaving no row, column or Redis key naming it, and nothing of another user', async () => {
    const leaving = await partnerWithEverything('/leaving');
    const staying = await partnerWithEverything('/staying');
    const sides = [leaving.userId, leaving.testSideId];
    const { rows: keyRows } = await t.db.query<{ key_hash: string; id: string }>('SELECT key_hash, id FROM api_keys WHERE user_id = ANY ($1)', [sides]);
    expect(keyRows).toHaveLength(3);
    const before = (await columnsNaming(leaving.userId)).sort();
    // Every table a user's data lives in names it (those without a user column through the ids below).
    expect(before).toEqual(
      expect.arrayContaining([
        'api_keys.user_id',
        'batches.user_id',
        'events.user_id',
        'quota_charges.user_id',
        'quota_usage.user_id',
        'users.id',
        'watch_entries.user_id',
        'webhook_endpoints.user_id',
      ]),
    );
    expect(await redisText(t.redis, t.redisPrefix)).toContain(leaving.userId);
    expect(await jobHashesNaming(leaving.testSideId)).not.toEqual([]);
    // JSON members naming the user in sets of keys that do not: a lookup's payers, and a charge's intent (due in
    // an hour, so that no sweep settles it first), as LookupPayers writes them.
    const payer = JSON.stringify({ userId: leaving.userId, period: '2026-11', licenceNumber: SANDBOX_NUMBERS.active, isNew: true, chargeId: '1' });
    await t.redis.sadd(`${t.redisPrefix}:payers:00000000-0000-4000-8000-000000000001`, payer, JSON.stringify({ userId: staying.userId }));
    await t.redis.zadd(
      `${t.redisPrefix}:charge-intents`,
      Date.now() + 3_600_000,
      payer,
      Date.now() + 3_600_000,
      JSON.stringify({ userId: staying.userId }),
    );
    const stayingBefore = await columnsNaming(staying.userId);
    const count = async (table: string) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = ANY ($1)`, [sides])).rows[0].n;
    const charges = await count('quota_charges');
    expect(charges).toBeGreaterThanOrEqual(4); // the verified, batched, watched and test numbers
    const usageRows = await count('quota_usage');
    expect(usageRows).toBe(2); // the user's month, and its test side's
    const stayingUsage = (await call(staying.key, 'GET', '/v1/quota/usage')).body;

    // The user's keys keep calling while the command runs: answered as usual until its first step, 401 after (from
    // at most a second after the user's row reads stopped), never 500.
    let running = true;
    const done = () => !running;
    const during = Promise.all([keepCalling(leaving.key, done), keepCalling(leaving.secondKey, done)]);
    const stoppedAt = whenStopped(leaving.userId, done);
    const deleted = await runAdminCli(t.env, 'delete-user', leaving.userId, '--confirm').finally(() => (running = false));
    expect([deleted.status, deleted.stderr]).toEqual([0, '']);
    const stopped = await stoppedAt;
    expect(stopped).not.toBeNull();
    for (const answers of await during) {
      const statuses = answers.map((answer) => answer.status);
      const refusedFrom = statuses.indexOf(401);
      expect(refusedFrom).toBeGreaterThan(0); // served before the command stopped the user, refused during it
      expect([...new Set(statuses.slice(0, refusedFrom))]).toEqual([200]);
      expect([...new Set(statuses.slice(refusedFrom))]).toEqual([401]);
      expect(answers.filter((answer) => answer.sentAt > stopped! + 1000 && answer.status !== 401)).toEqual([]);
    }
    const report = JSON.parse(deleted.stdout) as { userId: string; deletedAt: string; deleted: Record<string, number> };
    expect(report).toEqual({
      userId: leaving.userId,
      deletedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      deleted: {
        apiKeys: 3,
        batches: 1,
        batchItems: 1,
        watchEntries: 1,
        webhookEndpoints: 1,
        webhookDeliveries: expect.any(Number),
        webhookAttempts: expect.any(Number),
        events: expect.any(Number),
        quotaCharges: charges,
        quotaUsage: usageRows,
        // drained from their stream by the worker, or still in it: either way deleted
        verificationRecords: expect.any(Number),
        // its keys' creations, the second key's, its webhook's
        activityEvents: 4,
        redisKeys: expect.any(Number),
      },
    });
    expect(report.deleted.webhookDeliveries).toBeGreaterThanOrEqual(1);
    expect(report.deleted.webhookAttempts).toBeGreaterThanOrEqual(1);
    expect(report.deleted.events).toBeGreaterThanOrEqual(1);
    expect(report.deleted.redisKeys).toBeGreaterThanOrEqual(1);

    // No column of any table, and no key or value under the prefix, names the user or holds one of its keys.
    for (const needle of [...sides, ...keyRows.flatMap((row) => [row.id, row.key_hash])]) {
      expect([needle, await columnsNaming(needle)]).toEqual([needle, []]);
    }
    const redis = await redisText(t.redis, t.redisPrefix);
    for (const needle of [...sides, ...keyRows.map((row) => row.key_hash)]) expect([needle, redis.includes(needle)]).toEqual([needle, false]);
    expect(await t.redis.smembers(`${t.redisPrefix}:payers:00000000-0000-4000-8000-000000000001`)).toEqual([JSON.stringify({ userId: staying.userId })]);
    expect(await t.redis.zrange(`${t.redisPrefix}:charge-intents`, 0, -1)).toEqual([JSON.stringify({ userId: staying.userId })]);
    // Records the worker drains after the command (none of the user's may arrive): a record of the staying user
    // answered now reaches the table, after which none of the leaving user's is there.
    const after = await call(staying.key, 'POST', '/v1/licences/verify', { licenceNumber: SANDBOX_NUMBERS.active }, { 'idempotency-key': 'after' });
    expect(after.status).toBe(200);
    const afterId = (after.body as { verificationId: string }).verificationId;
    await until(
      async () => (await t.db.query('SELECT 1 FROM verification_records WHERE verification_id = $1', [afterId])).rowCount,
      (found) => found === 1,
      20_000,
    );
    const { rows: leftRecords } = await t.db.query('SELECT verification_id FROM verification_records WHERE user_id = ANY ($1)', [sides]);
    expect(leftRecords).toEqual([]);

    // Its keys and its console session are refused; the other user keeps everything and works.
    for (const key of [leaving.key, leaving.secondKey]) {
      const refused = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
    }
    const overview = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie: leaving.session } });
    expect([overview.status, overview.headers.get('location')]).toEqual([303, '/console/sign-in']);
    expect(await columnsNaming(staying.userId)).toEqual(stayingBefore);
    expect((await call(staying.key, 'GET', '/v1/quota/usage')).body).toEqual(stayingUsage);
    const stayingOverview = await fetch(`${t.baseUrl}/console/overview`, { redirect: 'manual', headers: { cookie: staying.session } });
    expect(stayingOverview.status).toBe(200);
  }, 120_000);
});
