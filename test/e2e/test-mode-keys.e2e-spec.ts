import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { OPERATOR_ORIGIN } from '../../src/activity/activity-log';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { billingPeriod } from '../../src/quota/billing-period';
import { LIVE_WORLD } from '../../src/watchlist/recheck.queue';
import { WatchlistRepository } from '../../src/watchlist/watchlist.repository';
import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const TEST_MODE_QUOTA = 7;
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
const KEY_NOT_FOUND = { code: 'KEY_NOT_FOUND', message: 'API key not found' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEST_KEY = /^lvs_test_[A-Za-z0-9_-]{43}$/;
const LIVE_KEY = /^lvs_[A-Za-z0-9_-]{43}$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

interface KeyView {
  id: string;
  mode: string;
  createdBy: string | null;
  revocable: boolean;
  current: boolean;
}

/**
 * Test keys (lvs_test_) on the real app and worker: issued by the admin command and POST /v1/keys to the user's test
 * side, listed and revoked across the modes, the Verification-Mode header, and the two worlds never meeting.
 */
describe('test mode: test keys and separate worlds', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { TEST_MODE_QUOTA: String(TEST_MODE_QUOTA), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0' },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const call = (key: string, method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
  const mode = (response: TestResponse) => response.headers.get('verification-mode');
  const usage = async (key: string) => (await call(key, 'GET', '/v1/quota/usage')).body;
  const userRow = async (id: string) =>
    (await t.db.query<{ mode: string; live_user_id: string | null }>('SELECT mode, live_user_id FROM users WHERE id = $1', [id])).rows[0];

  /** A live user's key and a test key of its test side, issued by the live key through POST /v1/keys. */
  async function bothSides(quota: number | null = null): Promise<{ live: string; test: string; liveUserId: string; testUserId: string }> {
    const live = await t.createKey({ quota });
    const created = await call(live.key, 'POST', '/v1/keys', { name: 'test side', mode: 'test' });
    expect(created.status).toBe(201);
    const testKey = (created.body as { key: string }).key;
    const [{ id: testUserId }] = (await t.db.query<{ id: string }>('SELECT id FROM users WHERE live_user_id = $1', [live.userId])).rows;
    return { live: live.key, test: testKey, liveUserId: live.userId, testUserId };
  }

  describe('the admin command', () => {
    it('create --test makes a live user and its test side, and prints only the test key, naming the live user', async () => {
      const result = await runAdminCli(t.env, 'create', '--name', 'Acme Security', '--test');
      expect([result.status, result.stderr]).toEqual([0, '']);
      const printed = JSON.parse(result.stdout) as { key: string; userId: string; liveUserId: string; keyId: string };
      expect(printed).toEqual({
        key: expect.stringMatching(TEST_KEY),
        keyId: expect.stringMatching(UUID),
        userId: expect.stringMatching(UUID),
        mode: 'test',
        liveUserId: expect.stringMatching(UUID),
        name: 'Acme Security',
        quota: TEST_MODE_QUOTA,
        expiresAt: null,
      });
      expect(printed.userId).not.toBe(printed.liveUserId);
      expect(await userRow(printed.userId)).toEqual({ mode: 'test', live_user_id: printed.liveUserId });
      expect(await userRow(printed.liveUserId)).toEqual({ mode: 'live', live_user_id: null });
      const keysByUser = await t.db.query<{ user_id: string; key_prefix: string }>('SELECT user_id, key_prefix FROM api_keys WHERE user_id = ANY ($1)', [
        [printed.userId, printed.liveUserId],
      ]);
      expect(keysByUser.rows).toEqual([{ user_id: printed.userId, key_prefix: printed.key.slice(0, 15) }]);

      const answer = await call(printed.key, 'GET', '/v1/quota/usage');
      expect([answer.status, answer.body, mode(answer)]).toEqual([
        200,
        { period: billingPeriod(t.clock.now(), 'UTC'), used: 0, quota: TEST_MODE_QUOTA, remaining: TEST_MODE_QUOTA },
        'test',
      ]);
    });

    it('create --test --user adds a test key to a live user, reusing its test side, and refuses a test side as the user', async () => {
      const live = await t.createKey({ quota: 50 });
      const first = await runAdminCli(t.env, 'create', '--name', 'CI', '--test', '--user', live.userId);
      const second = await runAdminCli(t.env, 'create', '--name', 'CI 2', '--test', '--user', live.userId);
      expect([first.status, second.status]).toEqual([0, 0]);
      const [one, two] = [first, second].map((result) => JSON.parse(result.stdout) as { key: string; userId: string; liveUserId: string });
      expect(one).toMatchObject({ mode: 'test', liveUserId: live.userId, quota: TEST_MODE_QUOTA });
      expect(two.userId).toBe(one.userId);
      expect(two.key).not.toBe(one.key);
      const sides = await t.db.query('SELECT count(*)::int AS n FROM users WHERE live_user_id = $1', [live.userId]);
      expect(sides.rows).toEqual([{ n: 1 }]);

      const refused = await runAdminCli(t.env, 'create', '--name', 'nested', '--test', '--user', one.userId);
      expect([refused.status, refused.stdout, refused.stderr]).toEqual([2, '', `User ${one.userId} is a test side: give its live user\n`]);
      // Without --test too: it would print mode live and make a test key.
      const unmarked = await runAdminCli(t.env, 'create', '--name', 'unmarked', '--user', one.userId);
      expect([unmarked.status, unmarked.stdout, unmarked.stderr]).toEqual([
        2,
        '',
        `User ${one.userId} is a test side: give its live user, with --test for a test key\n`,
      ]);
      const keys = await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [one.userId]);
      expect(keys.rows).toEqual([{ n: 2 }]);
      const quotaWithTest = await runAdminCli(t.env, 'create', '--name', 'Acme', '--test', '--quota', '5');
      expect(quotaWithTest.status).toBe(2);
      expect(quotaWithTest.stderr.split('\n')[0]).toBe(
        '--quota is the live plan; a test key has TEST_MODE_QUOTA: create the user first, or use set-quota',
      );
    });

    it('makes one test side for a live user when 10 test keys are issued to it at once', async () => {
      const live = await t.createKey();
      const keys = t.app.get(ApiKeysService);
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, index) => keys.createKey({ name: `at once ${index}`, userId: live.userId, testModeQuota: TEST_MODE_QUOTA })),
      );
      expect(new Set(created.map((key) => key.userId)).size).toBe(1);
      expect(created.every((key) => TEST_KEY.test(key.key) && key.liveUserId === live.userId)).toBe(true);
      const sides = await t.db.query('SELECT count(*)::int AS n FROM users WHERE live_user_id = $1', [live.userId]);
      expect(sides.rows).toEqual([{ n: 1 }]);
    });
  });

  describe('POST, GET and DELETE /v1/keys across the modes', () => {
    it("creates keys of the caller's mode by default, test keys on request, and refuses a live key to a test key", async () => {
      const root = await t.createKey();
      const testAnswer = await call(root.key, 'POST', '/v1/keys', { name: 'sandbox', mode: 'test' });
      expect([testAnswer.status, mode(testAnswer)]).toEqual([201, null]);
      const testKey = testAnswer.body as KeyView & { key: string; prefix: string };
      expect(testKey).toEqual({
        id: expect.stringMatching(UUID),
        name: 'sandbox',
        prefix: testKey.key.slice(0, 15),
        mode: 'test',
        role: 'admin',
        createdAt: expect.stringMatching(ISO),
        lastUsedAt: null,
        expiresAt: null,
        createdBy: root.keyId,
        revocable: true,
        current: false,
        key: expect.stringMatching(TEST_KEY),
      });
      const liveAnswer = await call(root.key, 'POST', '/v1/keys', { name: 'second live' });
      expect(liveAnswer.status).toBe(201);
      const liveKey = liveAnswer.body as KeyView & { key: string };
      expect([liveKey.mode, LIVE_KEY.test(liveKey.key), liveKey.key.startsWith('lvs_test_')]).toEqual(['live', true, false]);

      // A test key's default is test; asking it for a live key is refused, with the mode header.
      const childAnswer = await call(testKey.key, 'POST', '/v1/keys', { name: 'child' });
      expect([childAnswer.status, (childAnswer.body as KeyView).mode, mode(childAnswer)]).toEqual([201, 'test', 'test']);
      const child = childAnswer.body as KeyView & { key: string };
      const refused = await call(testKey.key, 'POST', '/v1/keys', { name: 'escape', mode: 'live' });
      expect([refused.status, refused.body, mode(refused)]).toEqual([
        400,
        { code: 'VALIDATION_ERROR', message: 'A test key may create only test keys' },
        'test',
      ]);
      const unknownMode = await call(root.key, 'POST', '/v1/keys', { name: 'odd', mode: 'sandbox' });
      expect([unknownMode.status, unknownMode.body]).toEqual([400, { code: 'VALIDATION_ERROR', message: 'mode must be live or test' }]);

      // A live key lists both sides' keys, each with its mode; a test key only the test keys.
      const summary = (response: TestResponse) =>
        (response.body as { keys: KeyView[] }).keys.map(({ id, mode: keyMode, createdBy, revocable, current }) => ({
          id,
          mode: keyMode,
          createdBy,
          revocable,
          current,
        }));
      const listedLive = await call(root.key, 'GET', '/v1/keys');
      expect(summary(listedLive)).toEqual([
        { id: root.keyId, mode: 'live', createdBy: null, revocable: true, current: true },
        { id: testKey.id, mode: 'test', createdBy: root.keyId, revocable: true, current: false },
        { id: liveKey.id, mode: 'live', createdBy: root.keyId, revocable: true, current: false },
        { id: child.id, mode: 'test', createdBy: testKey.id, revocable: true, current: false },
      ]);
      const listedTest = await call(testKey.key, 'GET', '/v1/keys');
      expect(summary(listedTest)).toEqual([
        { id: testKey.id, mode: 'test', createdBy: root.keyId, revocable: true, current: true },
        { id: child.id, mode: 'test', createdBy: testKey.id, revocable: true, current: false },
      ]);
      expect(mode(listedTest)).toBe('test');

      // A test key cannot revoke a live key, not even one it can name: 404 as an unknown id.
      for (const id of [root.keyId, liveKey.id, MISSING_ID]) {
        const answer = await call(testKey.key, 'DELETE', `/v1/keys/${id}`);
        expect([id, answer.status, answer.body, mode(answer)]).toEqual([id, 404, KEY_NOT_FOUND, 'test']);
      }
      expect((await call(liveKey.key, 'GET', '/v1/keys')).status).toBe(200);
      // A live key revokes a test key, at once.
      const revoked = await call(root.key, 'DELETE', `/v1/keys/${child.id}`);
      expect(revoked.status).toBe(204);
      const afterRevoke = await call(child.key, 'GET', '/v1/keys');
      expect([afterRevoke.status, afterRevoke.body, mode(afterRevoke)]).toEqual([401, UNAUTHORIZED, null]);
      expect(summary(await call(root.key, 'GET', '/v1/keys')).map((key) => key.id)).toEqual([root.keyId, testKey.id, liveKey.id]);
    });
  });

  it('marks every answer to a test key with Verification-Mode: test, errors included, and no answer to a live key', async () => {
    const { live, test } = await bothSides();
    const probes: [string, string, object | undefined, number][] = [
      ['GET', '/v1/quota/usage', undefined, 200],
      ['GET', '/v1/batches', undefined, 200],
      ['POST', '/v1/licences/verify', { licenceNumber: '123' }, 400],
      ['GET', `/v1/batches/${MISSING_ID}`, undefined, 404],
      ['GET', `/v1/verifications/${MISSING_ID}`, undefined, 404],
      ['DELETE', `/v1/webhooks/${MISSING_ID}`, undefined, 404],
    ];
    for (const [method, path, body, status] of probes) {
      const asTest = await call(test, method, path, body);
      const asLive = await call(live, method, path, body);
      expect([method, path, asTest.status, mode(asTest), asLive.status, mode(asLive)]).toEqual([method, path, status, 'test', status, null]);
    }
    const refused = await call(`${test}x`, 'GET', '/v1/quota/usage');
    expect([refused.status, refused.body, mode(refused)]).toEqual([401, UNAUTHORIZED, null]);
  });

  it('lets no object cross between the modes, on any list or id route', async () => {
    const { live, test } = await bothSides();
    type Side = { key: string; mode: string; number: string; row: number };
    const sides: Side[] = [
      { key: live, mode: 'live', number: SANDBOX_NUMBERS.active, row: 1 },
      { key: test, mode: 'test', number: SANDBOX_NUMBERS.withConditions, row: 2 },
    ];
    const made = new Map<Side, { batch: string; watched: string; webhook: string; verification: string; event: string }>();
    for (const side of sides) {
      const batch = await call(side.key, 'POST', '/v1/batches', { items: [{ licenceNumber: unknownNumber(90, side.row) }] });
      expect([batch.status, (batch.body as { mode: string }).mode]).toEqual([200, side.mode]);
      const watched = await call(side.key, 'PUT', `/v1/watchlist/${side.number}`);
      expect([watched.status, (watched.body as { mode: string }).mode]).toEqual([201, side.mode]);
      const webhook = await call(side.key, 'POST', '/v1/webhooks', { url: `${receiver.url}/cross-${side.mode}` });
      expect([webhook.status, (webhook.body as { mode: string }).mode]).toEqual([201, side.mode]);
      const webhookId = (webhook.body as { id: string }).id;
      expect((await call(side.key, 'POST', `/v1/webhooks/${webhookId}/test`)).status).toBe(202);
      const verified = await call(side.key, 'POST', '/v1/licences/verify', { licenceNumber: side.number });
      expect(verified.status).toBe(200);
      const events = (await call(side.key, 'GET', '/v1/events')).body as { events: { id: string; type: string; mode: string }[] };
      const pings = events.events.filter((event) => event.type === 'ping');
      expect(pings.map((event) => [event.type, event.mode])).toEqual([['ping', side.mode]]);
      made.set(side, {
        batch: (batch.body as { id: string }).id,
        watched: side.number,
        webhook: webhookId,
        verification: (verified.body as { verificationId: string }).verificationId,
        event: pings[0].id,
      });
    }

    for (const side of sides) {
      const own = made.get(side)!;
      const other = made.get(sides.find((candidate) => candidate !== side)!)!;
      // Every list shows exactly its own side's object, with its mode.
      const lists = {
        batches: ((await call(side.key, 'GET', '/v1/batches')).body as { batches: { id: string; mode: string }[] }).batches.map((item) => [
          item.id,
          item.mode,
        ]),
        watchlist: ((await call(side.key, 'GET', '/v1/watchlist')).body as { items: { licenceNumber: string; mode: string }[] }).items.map((item) => [
          item.licenceNumber,
          item.mode,
        ]),
        webhooks: ((await call(side.key, 'GET', '/v1/webhooks')).body as { webhooks: { id: string; mode: string }[] }).webhooks.map((item) => [
          item.id,
          item.mode,
        ]),
        // Re-checks of the watched numbers may add licence events; the pings are what each side made.
        events: ((await call(side.key, 'GET', '/v1/events')).body as { events: { id: string; type: string; mode: string }[] }).events
          .filter((item) => item.type === 'ping')
          .map((item) => [item.id, item.mode]),
        verifications: (
          await until(
            async () =>
              ((await call(side.key, 'GET', '/v1/verifications')).body as { verifications: { verificationId: string; mode: string; channel: string }[] })
                .verifications,
            (records) => records.some((record) => record.channel === 'api'),
            5_000,
          )
        )
          .filter((record) => record.channel === 'api')
          .map((record) => [record.verificationId, record.mode]),
      };
      expect(lists).toEqual({
        batches: [[own.batch, side.mode]],
        watchlist: [[own.watched, side.mode]],
        webhooks: [[own.webhook, side.mode]],
        events: [[own.event, side.mode]],
        verifications: [[own.verification, side.mode]],
      });
      const ownRecord = await call(side.key, 'GET', `/v1/verifications/${own.verification}`);
      expect([ownRecord.status, (ownRecord.body as { mode: string }).mode]).toEqual([200, side.mode]);
      const ownBatch = await call(side.key, 'GET', `/v1/batches/${own.batch}`);
      expect([ownBatch.status, (ownBatch.body as { mode: string }).mode]).toEqual([200, side.mode]);

      // The other side's ids are unknown here.
      const crossed: [string, string, string][] = [
        ['GET', `/v1/batches/${other.batch}`, 'BATCH_NOT_FOUND'],
        ['GET', `/v1/batches/${other.batch}/results.csv`, 'BATCH_NOT_FOUND'],
        ['POST', `/v1/batches/${other.batch}/retry`, 'BATCH_NOT_FOUND'],
        ['DELETE', `/v1/watchlist/${other.watched}`, 'WATCH_NOT_FOUND'],
        ['GET', `/v1/webhooks/${other.webhook}/deliveries`, 'WEBHOOK_NOT_FOUND'],
        ['POST', `/v1/webhooks/${other.webhook}/test`, 'WEBHOOK_NOT_FOUND'],
        ['POST', `/v1/webhooks/${other.webhook}/rotate-secret`, 'WEBHOOK_NOT_FOUND'],
        ['DELETE', `/v1/webhooks/${other.webhook}`, 'WEBHOOK_NOT_FOUND'],
        ['GET', `/v1/verifications/${other.verification}`, 'VERIFICATION_NOT_FOUND'],
        ['GET', `/v1/verifications/${other.verification}/receipt`, 'VERIFICATION_NOT_FOUND'],
      ];
      for (const [method, path, code] of crossed) {
        const answer = await call(side.key, method, path);
        expect([side.mode, method, path, answer.status, (answer.body as { code: string }).code]).toEqual([side.mode, method, path, 404, code]);
      }
    }
    // Nothing was removed by the refused deletions.
    for (const side of sides) {
      const own = made.get(side)!;
      expect((await call(side.key, 'GET', `/v1/webhooks/${own.webhook}/deliveries`)).status).toBe(200);
      expect(((await call(side.key, 'GET', '/v1/watchlist')).body as { items: unknown[] }).items).toHaveLength(1);
    }
  });

  it('never charges test traffic to the live plan: the test side spends TEST_MODE_QUOTA, whatever the live plan', async () => {
    const { live, test, liveUserId, testUserId } = await bothSides(2);
    const period = billingPeriod(t.clock.now(), 'UTC');
    const liveBefore = await usage(live);
    expect(liveBefore).toEqual({ period, used: 0, quota: 2, remaining: 2 });

    // Seven distinct numbers on the test side: past the live plan of 2, up to TEST_MODE_QUOTA, then refused.
    for (let index = 0; index < TEST_MODE_QUOTA; index++) {
      const answer = await call(test, 'POST', '/v1/licences/verify', { licenceNumber: unknownNumber(91, index) });
      expect([index, answer.status, mode(answer)]).toEqual([index, 404, 'test']);
    }
    const over = await call(test, 'POST', '/v1/licences/verify', { licenceNumber: unknownNumber(91, 99) });
    expect([over.status, (over.body as { code: string }).code, mode(over)]).toEqual([429, 'QUOTA_EXCEEDED', 'test']);
    expect(await usage(test)).toEqual({ period, used: TEST_MODE_QUOTA, quota: TEST_MODE_QUOTA, remaining: 0 });

    // The live side is untouched, and can still spend its own plan.
    expect(await usage(live)).toEqual(liveBefore);
    const rows = await t.db.query<{ user_id: string; used: number }>('SELECT user_id, used FROM quota_usage WHERE user_id = ANY ($1) ORDER BY used', [
      [liveUserId, testUserId],
    ]);
    expect(rows.rows).toEqual([{ user_id: testUserId, used: TEST_MODE_QUOTA }]);
    expect((await call(live, 'POST', '/v1/licences/verify', { licenceNumber: unknownNumber(91, 0) })).status).toBe(404);
    expect(await usage(live)).toEqual({ period, used: 1, quota: 2, remaining: 1 });
    expect(await usage(test)).toEqual({ period, used: TEST_MODE_QUOTA, quota: TEST_MODE_QUOTA, remaining: 0 });
  });

  it("has re-checks charge a test watcher TEST_MODE_QUOTA and its live user's watcher the live plan", async () => {
    const { live, test, liveUserId, testUserId } = await bothSides(2);
    const licenceNumber = SANDBOX_NUMBERS.withConditions;
    for (const key of [live, test]) expect((await call(key, 'PUT', `/v1/watchlist/${licenceNumber}`)).status).toBe(201);
    const ours = <T extends { userId: string; monthlyQuota: number | null }>(watchers: T[]) =>
      watchers
        .filter(({ userId }) => userId === liveUserId || userId === testUserId)
        .map(({ userId, monthlyQuota }) => [userId === liveUserId ? 'live' : 'test', monthlyQuota])
        .sort();
    const repository = t.app.get(WatchlistRepository);
    const expected = [
      ['live', 2],
      ['test', TEST_MODE_QUOTA],
    ];
    // The live watcher watches the number in the live world, the test watcher in its test side's own world.
    const inBothWorlds = async <T>(read: (world: string) => Promise<T[]>) => [...(await read(LIVE_WORLD)), ...(await read(testUserId))];
    expect(ours(await inBothWorlds((world) => repository.watchers(licenceNumber, world)))).toEqual(expected);
    expect(ours(await inBothWorlds((world) => repository.successorWatchers(licenceNumber, world)))).toEqual(expected);
  });

  it("gives a test key its live user's rate, in a bucket of its own", async () => {
    const live = await t.createKey();
    const test = await t.createKey({ userId: live.userId, test: true });
    expect(await t.app.get(ApiKeysService).setRateLimit(live.userId, 3, { origin: OPERATOR_ORIGIN })).toBe(true);
    // GET /v1/batches takes a token (GET /v1/quota/usage, of the original contract, takes none).
    const asTest = await call(test.key, 'GET', '/v1/batches');
    const asLive = await call(live.key, 'GET', '/v1/batches');
    const asOther = await call((await t.createKey()).key, 'GET', '/v1/batches');
    const policy = (answer: TestResponse) => answer.headers.get('ratelimit-policy');
    expect(policy(asTest)).toBe(policy(asLive));
    expect(policy(asTest)).not.toBe(policy(asOther));
    // Each side's first request took the first token of its own bucket: neither saw the other's.
    const left = (answer: TestResponse) => /;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1];
    expect(left(asTest)).toBeDefined();
    expect(left(asTest)).toBe(left(asLive));
  });

  it('refuses test keys while the live user is disabled, and lets them in again once it is enabled', async () => {
    const { live, test, liveUserId } = await bothSides();
    expect((await call(test, 'GET', '/v1/quota/usage')).status).toBe(200); // cached as valid
    expect((await runAdminCli(t.env, 'disable-user', liveUserId)).status).toBe(0);
    for (const key of [live, test]) {
      const answer = await call(key, 'GET', '/v1/quota/usage');
      expect([answer.status, answer.body, mode(answer)]).toEqual([401, UNAUTHORIZED, null]);
    }
    expect((await runAdminCli(t.env, 'enable-user', liveUserId)).status).toBe(0);
    const back = await call(test, 'GET', '/v1/quota/usage');
    expect([back.status, mode(back)]).toEqual([200, 'test']);
  });

  it('deletes the test side, its rows and its Redis keys, with its live user', async () => {
    const { live, test, liveUserId, testUserId } = await bothSides();
    expect((await call(test, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`)).status).toBe(201);
    // A key naming the test side, as the service's per-user keys do.
    await t.redis.set(`${t.redisPrefix}:probe:${testUserId}`, '1');
    const deleted = await runAdminCli(t.env, 'delete-user', liveUserId, '--confirm');
    expect(deleted.status).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ userId: liveUserId, deleted: { apiKeys: 2, watchEntries: 1 } });
    const users = await t.db.query('SELECT id FROM users WHERE id = ANY ($1)', [[liveUserId, testUserId]]);
    expect(users.rows).toEqual([]);
    expect(await t.redis.keys(`${t.redisPrefix}*${testUserId}*`)).toEqual([]);
    for (const key of [live, test]) expect((await call(key, 'GET', '/v1/quota/usage')).status).toBe(401);
  });
});
