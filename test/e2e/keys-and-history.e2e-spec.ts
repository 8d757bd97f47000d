import { billingPeriod, recentPeriods } from '../../src/quota/billing-period';
import { request, TestResponse } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
const KEY_NOT_FOUND = { code: 'KEY_NOT_FOUND', message: 'API key not found' };
const invalid = (message: string) => ({ code: 'VALIDATION_ERROR', message });
const MONTHS = 'months must be an integer from 1 to 24';
const HISTORY_QUERY = 'Query may only contain months';
const KEY_BODY = 'Request body must be {"name"} with a name of 1 to 100 characters, and may add expiresAt';
const KEY_LIMIT = 'A user may hold at most 10 active keys; revoke one first';

/**
 * GET /v1/quota/history and the self-service key routes, on the real app, each answer checked against the document.
 * The app runs without the console: these routes are the API's own, whatever serves pages.
 */
describe('quota history and the keys routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { CONSOLE_ENABLED: 'false' } });
  });

  it('serves no console with CONSOLE_ENABLED=false', async () => {
    for (const path of ['/console', '/console/sign-in', '/console/assets/console.css']) {
      const response = await request(t.baseUrl, 'GET', path);
      expect([path, response.status, response.body]).toEqual([path, 404, { code: 'ROUTE_NOT_FOUND', message: 'Route not found' }]);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (key: string) => ({ headers: { 'x-api-key': key } });
  const history = (key: string, query = '') => request(t.baseUrl, 'GET', `/v1/quota/history${query}`, as(key));
  const listKeys = (key: string) => request(t.baseUrl, 'GET', '/v1/keys', as(key));
  const createKey = (key: string, body: unknown = { name: 'second key' }) => request(t.baseUrl, 'POST', '/v1/keys', { ...as(key), body: body as object });
  const revokeKey = (key: string, id: string) => request(t.baseUrl, 'DELETE', `/v1/keys/${id}`, as(key));
  const keyIds = (response: TestResponse) => (response.body as { keys: { id: string }[] }).keys.map((key) => key.id);

  describe('GET /v1/quota/history', () => {
    it('answers the last 12 periods by default, oldest first, with the usage of each and the plan', async () => {
      const owner = await t.createKey({ quota: 40 });
      const current = billingPeriod(t.clock.now(), 'UTC');
      const periods = recentPeriods(current, 12);
      await t.db.query('INSERT INTO quota_usage (user_id, period, used) VALUES ($1, $2, 7), ($1, $3, 3)', [owner.userId, periods[0], current]);
      // Another user's usage in the same period is not the caller's.
      const other = await t.createKey();
      await t.db.query('INSERT INTO quota_usage (user_id, period, used) VALUES ($1, $2, 99)', [other.userId, current]);

      const response = await history(owner.key);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        periods: periods.map((period) => ({ period, used: period === periods[0] ? 7 : period === current ? 3 : 0, quota: 40 })),
      });
    });

    it.each([1, 24])('answers exactly as many periods as months=%i asks, ending with the current one', async (months) => {
      const { key } = await t.createKey();
      const response = await history(key, `?months=${months}`);
      expect(response.status).toBe(200);
      const periods = (response.body as { periods: { period: string; quota: null }[] }).periods;
      expect(periods.map((entry) => entry.period)).toEqual(recentPeriods(billingPeriod(t.clock.now(), 'UTC'), months));
      expect(periods.every((entry) => entry.quota === null)).toBe(true);
    });

    it.each([
      ['?months=0', MONTHS],
      ['?months=25', MONTHS],
      ['?months=abc', MONTHS],
      ['?months=1.5', MONTHS],
      ['?months=-1', MONTHS],
      ['?months=3&months=4', MONTHS],
      ['?limit=3', HISTORY_QUERY],
    ])('answers %s with 400 and its fixed text', async (query, message) => {
      const { key } = await t.createKey();
      const response = await history(key, query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid(message));
    });

    it('answers 401 without a key, before looking at the query', async () => {
      const response = await request(t.baseUrl, 'GET', '/v1/quota/history?months=99');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    });
  });

  describe('/v1/keys', () => {
    it("lists the user's keys without their secrets, marks the current one and records its last use", async () => {
      const first = await t.createKey({ name: 'first' });
      const second = await t.createKey({ name: 'second', userId: first.userId });
      const response = await listKeys(first.key);
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(first.key);
      expect(response.text).not.toContain(second.key);
      expect(response.body).toEqual({
        keys: [
          expect.objectContaining({ id: first.keyId, name: 'first', prefix: first.key.slice(0, 10), current: true, expiresAt: null }),
          expect.objectContaining({ id: second.keyId, name: 'second', prefix: second.key.slice(0, 10), current: false, lastUsedAt: null }),
        ],
      });
      const used = await until(
        () => listKeys(second.key),
        (answer) => (answer.body as { keys: { id: string; lastUsedAt: string | null }[] }).keys.every((key) => key.lastUsedAt !== null),
      );
      for (const key of (used.body as { keys: { lastUsedAt: string }[] }).keys) {
        expect(Math.abs(Date.parse(key.lastUsedAt) - Date.now())).toBeLessThan(60_000);
      }
    });

    it("writes a key's last use at most once a minute", async () => {
      const { key, keyId } = await t.createKey();
      await listKeys(key);
      const lastUsed = async () =>
        (await t.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [keyId])).rows[0].last_used_at;
      const first = await until(lastUsed, (value) => value !== null);
      for (let call = 0; call < 5; call++) await listKeys(key);
      // Longer than the recorder's flush interval: anything written would be there by now.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await lastUsed()).toEqual(first);
    });

    it('issues a key shown once, which works at once and shares the user', async () => {
      const owner = await t.createKey({ quota: 5 });
      const response = await createKey(owner.key, { name: '  Rostering system  ' });
      expect(response.status).toBe(201);
      const created = response.body as { id: string; key: string; name: string; prefix: string; current: boolean; lastUsedAt: null };
      expect(created).toMatchObject({ name: 'Rostering system', current: false, lastUsedAt: null, expiresAt: null });
      expect(created.key).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
      expect(created.prefix).toBe(created.key.slice(0, 10));
      const usage = await request(t.baseUrl, 'GET', '/v1/quota/usage', as(created.key));
      expect(usage.status).toBe(200);
      expect(usage.body).toMatchObject({ quota: 5 });
      const listed = await listKeys(created.key);
      expect(keyIds(listed)).toEqual([owner.keyId, created.id]);
      expect(listed.text).not.toContain(created.key);
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a name of 101 characters', { name: 'x'.repeat(101) }],
      ['a name that is not text', { name: 7 }],
      ['another field', { name: 'ok', quota: 5 }],
    ])('refuses %s with 400 and issues nothing', async (_case, body) => {
      const owner = await t.createKey();
      const response = await createKey(owner.key, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid(KEY_BODY));
      expect(keyIds(await listKeys(owner.key))).toEqual([owner.keyId]);
    });

    it('refuses a body that is not JSON with the contract text', async () => {
      const owner = await t.createKey();
      const response = await request(t.baseUrl, 'POST', '/v1/keys', {
        headers: { 'x-api-key': owner.key, 'content-type': 'application/json' },
        body: '{"name":',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('Request body is not valid JSON'));
    });

    it('holds at most 10 active keys per user; a revoked or expired key makes room', async () => {
      const owner = await t.createKey();
      const expired = await t.createKey({ userId: owner.userId, expiresAt: new Date(Date.now() - 1000) });
      for (let count = 1; count < 10; count++) expect((await createKey(owner.key)).status).toBe(201);
      const refused = await createKey(owner.key);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(invalid(KEY_LIMIT));
      const listed = keyIds(await listKeys(owner.key));
      expect(listed).toHaveLength(11); // ten active and the expired one
      expect(listed).toContain(expired.keyId);

      expect((await revokeKey(owner.key, listed[listed.length - 1])).status).toBe(204);
      expect((await createKey(owner.key)).status).toBe(201);
      expect((await createKey(owner.key)).status).toBe(400);
    });

    it('never passes the limit under concurrent requests', async () => {
      const owner = await t.createKey();
      for (let count = 1; count < 6; count++) expect((await createKey(owner.key)).status).toBe(201);
      const answers = await Promise.all(Array.from({ length: 12 }, () => createKey(owner.key)));
      expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 400).map((answer) => [answer.status, answer.body])).toEqual([]);
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(4);
      expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body)).toEqual(Array(8).fill(invalid(KEY_LIMIT)));
      const { rows } = await t.db.query<{ active: number }>('SELECT count(*)::int AS active FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL', [
        owner.userId,
      ]);
      expect(rows[0].active).toBe(10);
    });

    it("keeps users apart: B neither sees nor revokes A's keys, by id too", async () => {
      const userA = await t.createKey({ name: 'A' });
      const userB = await t.createKey({ name: 'B' });
      const aSecond = (await createKey(userA.key)).body as { id: string; key: string };

      expect(keyIds(await listKeys(userB.key))).toEqual([userB.keyId]);
      for (const id of [userA.keyId, aSecond.id]) {
        const response = await revokeKey(userB.key, id);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(KEY_NOT_FOUND);
      }
      expect(keyIds(await listKeys(userA.key))).toEqual([userA.keyId, aSecond.id]);
      expect((await listKeys(aSecond.key)).status).toBe(200);
    });

    it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000'])('answers 404 for the unknown id %s', async (id) => {
      const owner = await t.createKey();
      const response = await revokeKey(owner.key, id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(KEY_NOT_FOUND);
    });

    it('revokes a key at once, its own key too, and answers 404 for a second revocation', async () => {
      const owner = await t.createKey();
      const spare = (await createKey(owner.key)).body as { id: string; key: string };
      expect((await revokeKey(owner.key, spare.id)).status).toBe(204);
      const refused = await listKeys(spare.key);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(UNAUTHORIZED);
      expect((await revokeKey(owner.key, spare.id)).body).toEqual(KEY_NOT_FOUND);

      expect((await revokeKey(owner.key, owner.keyId)).status).toBe(204);
      expect((await listKeys(owner.key)).body).toEqual(UNAUTHORIZED);
    });

    it('answers 401 without a key on every route', async () => {
      for (const [method, path] of [
        ['GET', '/v1/keys'],
        ['POST', '/v1/keys'],
        ['DELETE', '/v1/keys/00000000-0000-4000-8000-000000000000'],
      ]) {
        const response = await request(t.baseUrl, method, path, method === 'POST' ? { body: { name: 'x' } } : {});
        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHORIZED);
      }
    });
  });
});
