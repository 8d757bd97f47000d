import { randomUUID } from 'node:crypto';
import { KEY_ROLES, KeyRole, Permission } from '../../src/auth/key-role';
import { FormClient } from '../support/console-client';
import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const FORBIDDEN = { code: 'FORBIDDEN', message: "This API key's role does not allow this operation" };
const NUMBER = '1011001544208079';

/** Which roles the table of docs/api.md (Key roles) lets through each need. */
const ALLOWED: Record<Permission, KeyRole[]> = {
  read: ['admin', 'developer', 'compliance', 'viewer'],
  check: ['admin', 'developer', 'compliance'],
  integrate: ['admin', 'developer'],
  audit: ['admin'],
};

interface Route {
  method: string;
  path: string;
  needs: Permission;
  /** what a refused key sends: a request that would charge, queue or change if it were let through */
  body?: object;
  /** what an allowed key sends instead, so that being let through changes nothing either (bad input, unknown id) */
  harmless?: object;
}

const ID = randomUUID();
const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/quota/usage', needs: 'read' },
  { method: 'GET', path: '/v1/quota/history', needs: 'read' },
  { method: 'GET', path: '/v1/verifications', needs: 'read' },
  { method: 'GET', path: '/v1/verifications/export', needs: 'read' },
  { method: 'GET', path: `/v1/verifications/${ID}`, needs: 'read' },
  { method: 'GET', path: `/v1/verifications/${ID}/receipt`, needs: 'read' },
  { method: 'GET', path: '/v1/watchlist', needs: 'read' },
  { method: 'GET', path: '/v1/events', needs: 'read' },
  { method: 'GET', path: '/v1/batches', needs: 'read' },
  { method: 'GET', path: `/v1/batches/${ID}`, needs: 'read' },
  { method: 'GET', path: `/v1/batches/${ID}/results.csv`, needs: 'read' },
  { method: 'POST', path: '/v1/licences/verify', needs: 'check', body: { licenceNumber: NUMBER }, harmless: { licenceNumber: '1' } },
  {
    method: 'POST',
    path: '/v1/licences/verify-holder',
    needs: 'check',
    body: { licenceNumber: NUMBER, firstName: 'Jane', surname: 'Smith', dateOfBirth: '1990-01-01' },
    harmless: { licenceNumber: '1' },
  },
  { method: 'POST', path: '/v1/licences/search', needs: 'check', body: { surname: 'Smith' }, harmless: { surname: '1' } },
  { method: 'POST', path: '/v1/batches', needs: 'check', body: { licenceNumbers: [NUMBER] }, harmless: { licenceNumbers: [] } },
  { method: 'POST', path: `/v1/batches/${ID}/retry`, needs: 'check' },
  { method: 'PUT', path: `/v1/watchlist/${NUMBER}`, needs: 'check', body: {}, harmless: { reference: 5 } },
  { method: 'DELETE', path: `/v1/watchlist/${NUMBER}`, needs: 'check' },
  { method: 'POST', path: '/v1/watchlist:batchAdd', needs: 'check', body: { licenceNumbers: [NUMBER] }, harmless: { licenceNumbers: 5 } },
  { method: 'GET', path: '/v1/keys', needs: 'integrate' },
  { method: 'POST', path: '/v1/keys', needs: 'integrate', body: { name: 'more', role: 'viewer' }, harmless: { name: '' } },
  { method: 'DELETE', path: `/v1/keys/${ID}`, needs: 'integrate' },
  { method: 'GET', path: '/v1/webhooks', needs: 'integrate' },
  { method: 'POST', path: '/v1/webhooks', needs: 'integrate', body: { url: 'https://example.com/hook' }, harmless: { url: 'http://x' } },
  { method: 'PATCH', path: `/v1/webhooks/${ID}`, needs: 'integrate', body: { url: 'https://example.com/moved' }, harmless: {} },
  { method: 'DELETE', path: `/v1/webhooks/${ID}`, needs: 'integrate' },
  { method: 'POST', path: `/v1/webhooks/${ID}/rotate-secret`, needs: 'integrate' },
  { method: 'POST', path: `/v1/webhooks/${ID}/test`, needs: 'integrate' },
  { method: 'GET', path: `/v1/webhooks/${ID}/deliveries`, needs: 'integrate' },
  { method: 'POST', path: `/v1/webhooks/${ID}/deliveries/${randomUUID()}/retry`, needs: 'integrate' },
  { method: 'GET', path: '/v1/activity', needs: 'audit' },
];

/**
 * Key roles on the real app: each role against every route of the table, a refusal being 403 FORBIDDEN before
 * anything happens (no charge, no lookup job, no change), and no key issuing a key with more rights than its own.
 */
describe('key roles', () => {
  let t: TestApp;
  let userId: string;
  const keys = {} as Record<KeyRole, string>;

  const as = (key: string) => ({ headers: { 'x-api-key': key } });
  const call = (key: string, method: string, path: string, body?: object) => request(t.baseUrl, method, path, { ...as(key), body });

  /** Everything a refused request must leave as it was: the user's charges, keys, batches, watchlist and webhooks, and the lookup queue. */
  async function traces(): Promise<Record<string, number>> {
    const { rows } = await t.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM quota_charges WHERE user_id = $1) AS charges,
              (SELECT count(*)::int FROM quota_usage WHERE user_id = $1) AS usage,
              (SELECT count(*)::int FROM api_keys WHERE user_id = $1) AS keys,
              (SELECT count(*)::int FROM batches WHERE user_id = $1) AS batches,
              (SELECT count(*)::int FROM watch_entries WHERE user_id = $1) AS watched,
              (SELECT count(*)::int FROM webhook_endpoints WHERE user_id = $1) AS webhooks`,
      [userId],
    );
    const jobs = (await t.redis.keys(`${t.redisPrefix}:bull:*`)).filter((key) => /:[0-9a-f-]{36}$/.test(key)).length;
    return { ...rows[0], jobs };
  }

  beforeAll(async () => {
    t = await startTestApp();
    const root = await t.createKey();
    userId = root.userId;
    keys.admin = root.key;
    for (const role of ['developer', 'compliance', 'viewer'] as const) {
      const response = await call(root.key, 'POST', '/v1/keys', { name: role, role });
      expect([response.status, (response.body as { role: string }).role]).toEqual([201, role]);
      keys[role] = (response.body as { key: string }).key;
    }
  });
  afterAll(() => t.close());

  it('keeps a key the operator made an admin, and lists each key with its role', async () => {
    const listed = await call(keys.admin, 'GET', '/v1/keys');
    expect((listed.body as { keys: Array<{ name: string; role: string }> }).keys.map(({ name, role }) => [name, role])).toEqual([
      ['test', 'admin'],
      ['developer', 'developer'],
      ['compliance', 'compliance'],
      ['viewer', 'viewer'],
    ]);
  });

  describe.each(KEY_ROLES)('a %s key', (role) => {
    const refused = ROUTES.filter((route) => !ALLOWED[route.needs].includes(role));
    const allowed = ROUTES.filter((route) => ALLOWED[route.needs].includes(role));

    if (refused.length > 0) {
      it(`is refused 403 FORBIDDEN, leaving no trace, on ${refused.length} routes`, async () => {
        const before = await traces();
        for (const route of refused) {
          const response = await call(keys[role], route.method, route.path, route.body);
          expect([route.method, route.path, response.status, response.body]).toEqual([route.method, route.path, 403, FORBIDDEN]);
        }
        expect(await traces()).toEqual(before);
      });
    }

    it(`is let through on ${allowed.length} routes`, async () => {
      const before = await traces();
      for (const route of allowed) {
        const response = await call(keys[role], route.method, route.path, route.harmless ?? route.body);
        expect([route.method, route.path, response.status === 403, response.status < 500]).toEqual([route.method, route.path, false, true]);
      }
      expect(await traces()).toEqual(before);
    });
  });

  it('lets no key issue a key with more rights than its own, nor a compliance key issue any', async () => {
    const before = await traces();
    expect(await call(keys.compliance, 'POST', '/v1/keys', { name: 'up', role: 'admin' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await call(keys.developer, 'POST', '/v1/keys', { name: 'up', role: 'admin' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await traces()).toEqual(before);
    // Left out, the role is the calling key's own.
    const same = await call(keys.developer, 'POST', '/v1/keys', { name: 'same' });
    expect([same.status, (same.body as { role: string }).role]).toEqual([201, 'developer']);
    const lesser = await call(keys.developer, 'POST', '/v1/keys', { name: 'lesser', role: 'viewer' });
    expect([lesser.status, (lesser.body as { role: string }).role]).toEqual([201, 'viewer']);
    const viewer = (lesser.body as { key: string }).key;
    expect(await call(viewer, 'POST', '/v1/licences/verify', { licenceNumber: NUMBER })).toMatchObject({ status: 403, body: FORBIDDEN });
  });

  it('refuses an unknown role 400, before anything is issued', async () => {
    const before = await traces();
    const response = await call(keys.admin, 'POST', '/v1/keys', { name: 'x', role: 'owner' });
    expect([response.status, response.body]).toEqual([400, { code: 'VALIDATION_ERROR', message: 'role must be admin, developer, compliance or viewer' }]);
    expect(await traces()).toEqual(before);
  });

  it('gives a test key a role as a live key has one', async () => {
    const issued = await call(keys.admin, 'POST', '/v1/keys', { name: 'test viewer', mode: 'test', role: 'viewer' });
    expect([issued.status, issued.body]).toEqual([201, expect.objectContaining({ mode: 'test', role: 'viewer' })]);
    const testViewer = (issued.body as { key: string }).key;
    expect(await call(testViewer, 'POST', '/v1/licences/verify', { licenceNumber: NUMBER })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await call(testViewer, 'POST', `/v1/test/licences/${NUMBER}`, { status: 'Revoked' })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await call(testViewer, 'GET', '/v1/quota/usage')).status).toBe(200);
    const count = await t.db.query('SELECT count(*)::int AS n FROM test_licences');
    expect(count.rows[0].n).toBe(0);
  });

  it('acts in the console with the role of the key it signed in with, refusing as a page', async () => {
    const before = await traces();
    const statuses = async (role: KeyRole, paths: string[]) => {
      const browser = new FormClient(t.baseUrl);
      expect((await browser.signIn(keys[role])).status).toBe(303);
      return Promise.all(paths.map(async (path) => [path, (await browser.send('GET', path)).status]));
    };
    expect(await statuses('viewer', ['/console/overview', '/console/history', '/console/verify', '/console/keys', '/console/webhooks'])).toEqual([
      ['/console/overview', 200],
      ['/console/history', 200],
      ['/console/verify', 403],
      ['/console/keys', 403],
      ['/console/webhooks', 403],
    ]);
    expect(await statuses('compliance', ['/console/verify', '/console/keys'])).toEqual([
      ['/console/verify', 200],
      ['/console/keys', 403],
    ]);
    const viewer = new FormClient(t.baseUrl);
    await viewer.signIn(keys.viewer);
    const _csrf = await viewer.tokenOf('/console/watchlist');
    const refused = await viewer.send('POST', '/console/watchlist', { _csrf, licenceNumber: NUMBER, reference: 'x' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('The key you signed in with has the role viewer, which does not allow this. Nothing was done.');
    expect(await traces()).toEqual(before);
  });

  it("offers the console's Keys page only the roles the session's key may issue, and issues no more", async () => {
    const browser = new FormClient(t.baseUrl);
    await browser.signIn(keys.developer);
    const page = await (await browser.send('GET', '/console/keys')).text();
    expect([...page.matchAll(/<option value="([a-z]+)">/g)].map((match) => match[1])).toEqual(['developer', 'compliance', 'viewer']);
    const _csrf = await browser.tokenOf('/console/keys');
    const keyCount = async () => (await t.db.query('SELECT count(*)::int AS n FROM api_keys WHERE role = $1', ['admin'])).rows[0].n as number;
    const admins = await keyCount();
    const refused = await browser.send('POST', '/console/keys', { _csrf, name: 'up', role: 'admin' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('This API key&#39;s role does not allow this operation');
    expect(await keyCount()).toBe(admins);
    expect((await browser.send('POST', '/console/keys', { _csrf, name: 'console viewer', role: 'viewer' })).status).toBe(201);
    const made = await t.db.query('SELECT role FROM api_keys WHERE name = $1', ['console viewer']);
    expect(made.rows).toEqual([{ role: 'viewer' }]);
  });
});
