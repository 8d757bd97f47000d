import { setTimeout as sleep } from 'node:timers/promises';
import { quotaUsage, request } from '../support/http';
import { ApiProcess } from '../support/api-process';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };

/**
 * Two API processes on one database and Redis, each caching keys in memory (for far longer than
 * these tests run): a change made with the admin command reaches both on their very next request.
 */
describe('key changes reach every API process at once', () => {
  let t: TestApp;
  let apis: ApiProcess[];

  beforeAll(async () => {
    t = await startTestApp();
    const env = { ...t.env, AUTH_CACHE_TTL_SECONDS: '3600' };
    apis = [await ApiProcess.start({ ...env, LOG_LEVEL: 'log' }), await ApiProcess.start({ ...env, LOG_LEVEL: 'log' })];
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await t.close();
  });

  async function createKey(...options: string[]): Promise<{ key: string; keyId: string; userId: string }> {
    const created = await runAdminCli(t.env, 'create', '--name', 'two processes', ...options);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    return JSON.parse(created.stdout);
  }

  async function usageOnEach(key: string) {
    return Promise.all(apis.map((api) => quotaUsage(api.baseUrl, key)));
  }

  it('answers 401 on both processes on the very next request after `admin revoke`', async () => {
    const { key, keyId, userId } = await createKey('--quota', '7');
    const other = JSON.parse((await runAdminCli(t.env, 'create', '--name', 'other key', '--user', userId)).stdout);
    for (const response of [...(await usageOnEach(key)), ...(await usageOnEach(other.key))]) {
      expect(response.status).toBe(200);
    }

    const revoked = await runAdminCli(t.env, 'revoke', keyId);
    expect(revoked.status).toBe(0);

    for (const response of await usageOnEach(key)) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    }
    // the user's other key, dropped from the caches with it, is read again and still works
    for (const response of await usageOnEach(other.key)) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ used: 0, quota: 7, remaining: 7 });
    }
  });

  it("refuses a key revoked through the API on that process's very next request, every time", async () => {
    // The revoking process's own copy of the broadcast may come after that request: it forgets before it answers.
    // On each process of this suite, and on the test's own in-process API.
    for (const baseUrl of [...apis.map((api) => api.baseUrl), t.baseUrl]) {
      const root = await t.createKey({ name: 'revoking root' });
      const as = (key: string) => ({ headers: { 'x-api-key': key } });
      for (let round = 0; round < 20; round++) {
        const issued = await request(baseUrl, 'POST', '/v1/keys', { ...as(root.key), body: { name: `round ${round}` } });
        const child = issued.body as { id: string; key: string };
        expect([round, issued.status, (await quotaUsage(baseUrl, child.key)).status]).toEqual([round, 201, 200]);
        expect([round, (await request(baseUrl, 'DELETE', `/v1/keys/${child.id}`, as(root.key))).status]).toEqual([round, 204]);
        expect([baseUrl, round, (await quotaUsage(baseUrl, child.key)).status]).toEqual([baseUrl, round, 401]);
      }
    }
  });

  it('answers 401 on both processes from the moment the key expires', async () => {
    // Room for creating the key through the CLI and a first request on each process, on a busy machine.
    const expiresAt = new Date(Date.now() + 10_000);
    const { key } = await createKey('--expires-at', expiresAt.toISOString());
    for (const response of await usageOnEach(key)) expect(response.status).toBe(200);

    await sleep(expiresAt.getTime() - Date.now() + 50);
    for (const response of await usageOnEach(key)) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    }
  });

  it('applies `admin set-quota` on both processes on the very next request', async () => {
    const { key, userId } = await createKey('--quota', '2');
    for (const response of await usageOnEach(key)) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ used: 0, quota: 2, remaining: 2 });
    }

    expect((await runAdminCli(t.env, 'set-quota', userId, '50')).status).toBe(0);
    for (const response of await usageOnEach(key)) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ used: 0, quota: 50, remaining: 50 });
    }

    expect((await runAdminCli(t.env, 'set-quota', userId, 'unlimited')).status).toBe(0);
    for (const response of await usageOnEach(key)) {
      expect(response.body).toMatchObject({ used: 0, quota: null, remaining: null });
    }
  });

  it('serves a cached key from memory: a revocation written straight to the database is not seen', async () => {
    // The other side of the coin: only announced changes are immediate; this one waits for the TTL.
    const { key, keyId } = await createKey();
    for (const response of await usageOnEach(key)) expect(response.status).toBe(200);
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
    for (const response of await usageOnEach(key)) expect(response.status).toBe(200);
  });

  it("keeps what each process cached about a user's keys when another user's keys change: a refused key stays refused, a cached one stays served", async () => {
    // Changes written straight to the database are not announced, so a process answers them only from what it
    // cached: the answers below show whether another user's change made it read the key again.
    const a = await createKey();
    const spare = JSON.parse((await runAdminCli(t.env, 'create', '--name', 'spare', '--user', a.userId)).stdout) as { key: string; keyId: string };
    expect((await runAdminCli(t.env, 'revoke', a.keyId)).status).toBe(0);
    for (const response of await usageOnEach(a.key)) expect(response.status).toBe(401); // cached as refused
    for (const response of await usageOnEach(spare.key)) expect(response.status).toBe(200); // cached as live
    await t.db.query('UPDATE api_keys SET revoked_at = NULL WHERE id = $1', [a.keyId]);
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [spare.keyId]);

    // Another user gets a key, changes its quota and loses a key: three announcements, none of them for A.
    const b = await createKey();
    expect((await runAdminCli(t.env, 'set-quota', b.userId, '5')).status).toBe(0);
    expect((await runAdminCli(t.env, 'revoke', b.keyId)).status).toBe(0);
    for (const response of await usageOnEach(a.key)) expect([response.status, response.body]).toEqual([401, UNAUTHORIZED]);
    for (const response of await usageOnEach(spare.key)) expect(response.status).toBe(200);

    // A change of A's own is announced: both keys are read again, as the database now has them.
    expect((await runAdminCli(t.env, 'set-quota', a.userId, '9')).status).toBe(0);
    for (const response of await usageOnEach(a.key)) expect([response.status, response.body]).toMatchObject([200, { quota: 9 }]);
    for (const response of await usageOnEach(spare.key)) expect([response.status, response.body]).toEqual([401, UNAUTHORIZED]);
  });
});
