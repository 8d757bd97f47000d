import { OPERATOR_ORIGIN } from '../../src/activity/activity-log';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashApiKey } from '../../src/auth/api-key-secret';
import { SESSION_COOKIE } from '../../src/console/console-cookies';
import { EVENT_TYPES } from '../../src/events/event-types';
import { consoleSessionKey } from '../../src/members/member-sessions';
import { MembersService } from '../../src/members/members.service';
import { RedisStore } from '../../src/redis/redis-store';
import { WatchlistService } from '../../src/watchlist/watchlist.service';
import { EndpointsService } from '../../src/webhooks/endpoints.service';
import { FormClient } from '../support/console-client';
import { request } from '../support/http';
import { joinByForm } from '../support/member-join';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };

/**
 * TEST_MODE_ENABLED=false, in its own app (settings are read once per process): test keys answer 401 as unknown keys
 * do, live keys work, members get no Test mode switch, and the test sides' watches and webhooks pause with nothing
 * deleted. The test side's objects
 * are made through the services, as no test key can make them.
 */
describe('test mode turned off', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { TEST_MODE_ENABLED: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WATCH_RECHECK_SECONDS: '3' } });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const call = (key: string, method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });

  it('answers a test key 401 as an unknown key, without the mode header, and a live key as usual', async () => {
    const live = await t.createKey();
    const test = await t.createKey({ userId: live.userId, test: true });
    for (const path of ['/v1/quota/usage', '/v1/keys', '/v1/batches']) {
      const refused = await call(test.key, 'GET', path);
      const unknown = await call(`${test.key}x`, 'GET', path);
      expect([path, refused.status, refused.body, refused.headers.get('verification-mode')]).toEqual([path, 401, UNAUTHORIZED, null]);
      expect([unknown.status, unknown.body]).toEqual([refused.status, refused.body]);
      const served = await call(live.key, 'GET', path);
      expect([path, served.status, served.headers.get('verification-mode')]).toEqual([path, 200, null]);
    }
    // A live key may still not mint a working test key: it is made, and refused like the others.
    const minted = await call(live.key, 'POST', '/v1/keys', { name: 'later', mode: 'test' });
    expect(minted.status).toBe(201);
    expect((await call((minted.body as { key: string }).key, 'GET', '/v1/keys')).status).toBe(401);
  });

  it("offers members no Test mode switch, refuses one posted, and ends a member's session left on the test side", async () => {
    const live = await t.createKey();
    await t.createKey({ userId: live.userId, test: true });
    const invited = await t.app.get(MembersService).invite(OPERATOR_ORIGIN, null, live.userId, 'tess@off.example', 'owner');
    if ('error' in invited) throw new Error(invited.error);
    const client = new FormClient(t.baseUrl);
    await joinByForm(client, invited.link, () => t.clock.now().getTime());
    const overview = await client.send('GET', '/console/overview');
    expect([overview.status, (await overview.text()).includes('Switch to test mode')]).toEqual([200, false]);
    const _csrf = await client.tokenOf('/console/overview');
    const refused = await client.send('POST', '/console/test-mode', { _csrf, mode: 'test' });
    expect([refused.status, await refused.json()]).toEqual([403, { code: 'FORBIDDEN', message: 'Test mode is off on this service' }]);
    expect((await client.send('GET', '/console/overview')).status).toBe(200);

    // A session switched to the test side before test mode was turned off: its next request signs it out.
    const redis = t.app.get(RedisStore);
    const key = consoleSessionKey(redis, hashApiKey(client.cookies.get(SESSION_COOKIE)!));
    const stored = JSON.parse((await redis.client.get(key))!) as Record<string, unknown>;
    await redis.client.set(key, JSON.stringify({ ...stored, side: 'test' }), 'KEEPTTL');
    const ended = await client.send('GET', '/console/overview');
    expect([ended.status, ended.headers.get('location'), await redis.client.exists(key)]).toEqual([303, '/console/sign-in', 0]);
  });

  it("neither re-checks a test side's watched numbers nor delivers its webhooks, and deletes nothing", async () => {
    const sandbox = new SandboxAdmin(t.sandbox.url);
    const live = await t.createKey();
    const test = await t.createKey({ userId: live.userId, test: true });
    const testOwner = { userId: test.userId, keyId: test.keyId, mode: 'test' as const, role: 'admin' as const, monthlyQuota: 1000 };
    const liveOwner = { userId: live.userId, keyId: live.keyId, mode: 'live' as const, role: 'admin' as const, monthlyQuota: null };
    const endpoints = t.app.get(EndpointsService);
    const webhook = { events: [...EVENT_TYPES] };
    const liveEndpoint = await endpoints.create(OPERATOR_ORIGIN, liveOwner, { ...webhook, url: `${receiver.url}/off-live` });
    const testEndpoint = await endpoints.create(OPERATOR_ORIGIN, testOwner, { ...webhook, url: `${receiver.url}/off-test` });
    await endpoints.test(test.userId, testEndpoint.id);
    await endpoints.test(live.userId, liveEndpoint.id);
    await t.app.get(WatchlistService).watch(testOwner, SANDBOX_NUMBERS.withConditions, 'paused side');
    expect((await call(live.key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.nonFrontLine}`)).status).toBe(201);

    // The live side's number is re-checked and its ping delivered; a few ticks later the test side's still are not.
    await until(
      () => receiver.to('/off-live').length,
      (count) => count === 1,
      10_000,
    );
    const checkedAt = async (licenceNumber: string) =>
      (await t.db.query<{ checked_at: Date | null }>('SELECT checked_at FROM licence_states WHERE licence_number = $1', [licenceNumber])).rows[0]
        .checked_at;
    await until(
      () => checkedAt(SANDBOX_NUMBERS.nonFrontLine),
      (at) => at !== null,
      10_000,
    );
    await sleep(3000);
    expect(await checkedAt(SANDBOX_NUMBERS.withConditions)).toBeNull();
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.withConditions)).toBe(0);
    expect(receiver.to('/off-test')).toEqual([]);
    const held = await t.db.query<{ status: string; held: boolean }>(
      'SELECT status, held_at IS NOT NULL AS held FROM webhook_deliveries WHERE endpoint_id = $1',
      [testEndpoint.id],
    );
    expect(held.rows).toEqual([{ status: 'PENDING', held: true }]);
    // Paused, not deleted.
    const kept = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM watch_entries WHERE user_id = $1) + (SELECT count(*)::int FROM webhook_endpoints WHERE user_id = $1)
              + (SELECT count(*)::int FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL) AS n`,
      [test.userId],
    );
    expect(kept.rows).toEqual([{ n: 3 }]);
  });
});
