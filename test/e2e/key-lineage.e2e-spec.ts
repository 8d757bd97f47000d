import { ApiProcess } from '../support/api-process';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
const KEY_NOT_FOUND = { code: 'KEY_NOT_FOUND', message: 'API key not found' };
const KEY_EXPIRY = { code: 'VALIDATION_ERROR', message: 'expiresAt must be a future ISO-8601 date, or date and time with its zone' };

interface IssuedKey {
  id: string;
  key: string;
  expiresAt: string | null;
  createdBy: string | null;
  revocable: boolean;
}

/**
 * Key lineage on the real app and the real admin command: a key issued through POST /v1/keys never outlives the
 * key that issued it, and a key revokes only itself and the keys descended from it. A leaked key can therefore
 * neither outlast its issuer nor lock out the keys above it, while the operator still revokes any key.
 */
describe('key lineage', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (key: string) => ({ headers: { 'x-api-key': key } });
  const usage = async (key: string) => (await request(t.baseUrl, 'GET', '/v1/quota/usage', as(key))).status;
  const revoke = (key: string, id: string) => request(t.baseUrl, 'DELETE', `/v1/keys/${id}`, as(key));
  async function issue(key: string, body: object = {}): Promise<IssuedKey> {
    const response = await request(t.baseUrl, 'POST', '/v1/keys', { ...as(key), body: { name: 'issued', ...body } });
    expect([response.status, response.body]).toEqual([201, expect.objectContaining({ current: false })]);
    return response.body as IssuedKey;
  }
  const storedExpiry = async (id: string) =>
    (await t.db.query<{ expires_at: Date | null }>('SELECT expires_at FROM api_keys WHERE id = $1', [id])).rows[0].expires_at?.toISOString() ?? null;

  describe('expiry', () => {
    const operatorExpiry = () => new Date(Date.now() + 30 * 86_400_000);

    it('caps a key asked never to expire to the expiry of the key that issued it, and shows the cap', async () => {
      const expiresAt = operatorExpiry();
      const root = await t.createKey({ expiresAt });
      const child = await issue(root.key);
      expect(child.expiresAt).toBe(expiresAt.toISOString());
      expect(child.createdBy).toBe(root.keyId);
      expect(await storedExpiry(child.id)).toBe(expiresAt.toISOString());
      expect((await issue(root.key, { expiresAt: null })).expiresAt).toBe(expiresAt.toISOString());
    });

    it('caps a later expiry, and keeps an earlier one; a grandchild is capped to its own issuer', async () => {
      const expiresAt = operatorExpiry();
      const root = await t.createKey({ expiresAt });
      const later = await issue(root.key, { expiresAt: '2099-01-01' });
      expect(later.expiresAt).toBe(expiresAt.toISOString());
      const earlierDate = new Date(expiresAt.getTime() - 7 * 86_400_000);
      const earlier = await issue(root.key, { expiresAt: earlierDate.toISOString() });
      expect(earlier.expiresAt).toBe(earlierDate.toISOString());
      const grandchild = await issue(earlier.key);
      expect(grandchild.expiresAt).toBe(earlierDate.toISOString());
      expect(await storedExpiry(grandchild.id)).toBe(earlierDate.toISOString());
      expect(grandchild.createdBy).toBe(earlier.id);
    });

    it('gives the asked expiry, or none, under a key that never expires', async () => {
      const root = await t.createKey();
      expect((await issue(root.key)).expiresAt).toBeNull();
      expect((await issue(root.key, { expiresAt: '2030-06-01T12:00:00+01:00' })).expiresAt).toBe('2030-06-01T11:00:00.000Z');
    });

    it("stops the issued key when its issuer's expiry comes", async () => {
      const expiresAt = new Date(Date.now() + 60_000);
      const root = await t.createKey({ expiresAt });
      const child = await issue(root.key);
      expect(await usage(child.key)).toBe(200);
      try {
        t.clock.travelTo(new Date(expiresAt.getTime() + 1));
        expect([await usage(root.key), await usage(child.key)]).toEqual([401, 401]);
      } finally {
        t.clock.set(null);
      }
    });

    it.each([
      ['a past date', '2001-01-01'],
      ['a time without zone', '2099-01-01T10:00'],
      ['a day that does not exist', '2099-02-30'],
      ['a number', 4102444800000],
    ])('refuses %s with 400 and issues nothing', async (_case, expiresAt) => {
      const root = await t.createKey();
      const response = await request(t.baseUrl, 'POST', '/v1/keys', { ...as(root.key), body: { name: 'x', expiresAt } });
      expect([response.status, response.body]).toEqual([400, KEY_EXPIRY]);
      const { rows } = await t.db.query('SELECT id FROM api_keys WHERE user_id = $1', [root.userId]);
      expect(rows).toEqual([{ id: root.keyId }]);
    });
  });

  describe('revocation', () => {
    /** operator key → a → b → c, and a's sibling a2, with a second operator key of the same user. */
    async function family() {
      const root = await t.createKey({ name: 'root' });
      const operatorSecond = await t.createKey({ name: 'operator second', userId: root.userId });
      const a = await issue(root.key, { name: 'a' });
      const a2 = await issue(root.key, { name: 'a2' });
      const b = await issue(a.key, { name: 'b' });
      const c = await issue(b.key, { name: 'c' });
      return { root, operatorSecond, a, a2, b, c };
    }

    it('lets a key revoke neither its issuer, nor a key above it, nor a sibling, nor an operator key: 404 as for an unknown key', async () => {
      const { root, operatorSecond, a, a2, b, c } = await family();
      for (const [caller, target] of [
        [a.key, root.keyId],
        [a.key, a2.id],
        [a.key, operatorSecond.keyId],
        [c.key, b.id],
        [c.key, a.id],
        [c.key, root.keyId],
        [a2.key, b.id],
        [operatorSecond.key, root.keyId],
        [operatorSecond.key, a.id],
      ]) {
        const response = await revoke(caller, target);
        expect([target, response.status, response.body]).toEqual([target, 404, KEY_NOT_FOUND]);
      }
      const { rows } = await t.db.query('SELECT id FROM api_keys WHERE user_id = $1 AND revoked_at IS NOT NULL', [root.userId]);
      expect(rows).toEqual([]);
      for (const key of [root.key, operatorSecond.key, a.key, a2.key, b.key, c.key]) expect(await usage(key)).toBe(200);
    });

    it('lets a key revoke the keys it issued, directly and through them, and leaves the rest working', async () => {
      const { root, operatorSecond, a, a2, b, c } = await family();
      expect((await revoke(a.key, c.id)).status).toBe(204);
      expect((await revoke(a.key, b.id)).status).toBe(204);
      expect([await usage(b.key), await usage(c.key)]).toEqual([401, 401]);
      expect([await usage(root.key), await usage(operatorSecond.key), await usage(a.key), await usage(a2.key)]).toEqual([200, 200, 200, 200]);
      // The operator's key is above them all.
      expect((await revoke(root.key, a2.id)).status).toBe(204);
      expect(await usage(a2.key)).toBe(401);
    });

    it('revokes the children and grandchildren of a key that revokes itself, on every API process, live and test', async () => {
      // A second process that caches keys far longer than this test runs: only the announcement can reach it.
      const second = await ApiProcess.start({ ...t.env, AUTH_CACHE_TTL_SECONDS: '3600' });
      try {
        const { root, operatorSecond, a, a2, b, c } = await family();
        const testGrandchild = await issue(b.key, { name: 'test grandchild', mode: 'test' });
        for (const key of [a.key, b.key, c.key, testGrandchild.key]) {
          expect([await usage(key), (await request(second.baseUrl, 'GET', '/v1/quota/usage', as(key))).status]).toEqual([200, 200]);
        }
        expect((await revoke(a.key, a.id)).status).toBe(204);
        for (const [name, key] of [
          ['a', a.key],
          ['b', b.key],
          ['c', c.key],
          ['test grandchild', testGrandchild.key],
        ]) {
          for (const baseUrl of [t.baseUrl, second.baseUrl]) {
            const refused = await request(baseUrl, 'GET', '/v1/quota/usage', as(key));
            expect([name, refused.status, refused.body]).toEqual([name, 401, UNAUTHORIZED]);
          }
        }
        const { rows } = await t.db.query<{ id: string }>(
          `SELECT id FROM api_keys WHERE (user_id = $1 OR user_id IN (SELECT id FROM users WHERE live_user_id = $1)) AND revoked_at IS NOT NULL ORDER BY id`,
          [root.userId],
        );
        expect(rows.map((row) => row.id)).toEqual([a.id, b.id, c.id, testGrandchild.id].sort());
        expect([await usage(root.key), await usage(operatorSecond.key), await usage(a2.key)]).toEqual([200, 200, 200]);
      } finally {
        await second.stop();
      }
    });

    it('leaves no key behind when keys are issued while their issuer is revoked: each is refused or revoked with it', async () => {
      const root = await t.createKey({ name: 'root' });
      const a = await issue(root.key, { name: 'a' });
      const issuing = Array.from({ length: 6 }, (_, n) => request(t.baseUrl, 'POST', '/v1/keys', { ...as(a.key), body: { name: `racing ${n}` } }));
      const revoked = await revoke(a.key, a.id);
      expect(revoked.status).toBe(204);
      const answers = await Promise.all(issuing);
      for (const answer of answers) expect([201, 401]).toContain(answer.status);
      for (const answer of answers.filter((answer) => answer.status === 201)) expect(await usage((answer.body as IssuedKey).key)).toBe(401);
      const { rows } = await t.db.query('SELECT id FROM api_keys WHERE created_by_key_id = $1 AND revoked_at IS NULL', [a.id]);
      expect(rows).toEqual([]);
    });

    it("lets any operator-issued key of the user revoke a key whose issuer is revoked, and lists it so; other keys' may not", async () => {
      const { root, operatorSecond, a, a2, b, c } = await family();
      // A key left behind by its issuer, as one issued before revocations reached descendants was.
      await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [a.id]);
      const listed = await request(t.baseUrl, 'GET', '/v1/keys', as(operatorSecond.key));
      const view = (listed.body as { keys: { id: string; revocable: boolean }[] }).keys.map(({ id, revocable }) => ({ id, revocable }));
      expect(view).toEqual([
        { id: root.keyId, revocable: false },
        { id: operatorSecond.keyId, revocable: true },
        { id: a2.id, revocable: false },
        { id: b.id, revocable: true },
        { id: c.id, revocable: true },
      ]);
      for (const caller of [a2.key, c.key]) {
        const refused = await revoke(caller, b.id);
        expect([refused.status, refused.body]).toEqual([404, KEY_NOT_FOUND]);
      }
      expect((await revoke(operatorSecond.key, b.id)).status).toBe(204);
      expect([await usage(b.key), await usage(c.key)]).toEqual([401, 401]);
      expect([await usage(root.key), await usage(operatorSecond.key), await usage(a2.key)]).toEqual([200, 200, 200]);
    });

    it('lists each key with its issuer and whether the calling key may revoke it', async () => {
      const { root, operatorSecond, a, a2, b, c } = await family();
      const listed = await request(t.baseUrl, 'GET', '/v1/keys', as(b.key));
      expect(listed.status).toBe(200);
      const view = (listed.body as { keys: { id: string; createdBy: string | null; revocable: boolean; current: boolean }[] }).keys.map(
        ({ id, createdBy, revocable, current }) => ({ id, createdBy, revocable, current }),
      );
      expect(view).toEqual([
        { id: root.keyId, createdBy: null, revocable: false, current: false },
        { id: operatorSecond.keyId, createdBy: null, revocable: false, current: false },
        { id: a.id, createdBy: root.keyId, revocable: false, current: false },
        { id: a2.id, createdBy: root.keyId, revocable: false, current: false },
        { id: b.id, createdBy: a.id, revocable: true, current: true },
        { id: c.id, createdBy: b.id, revocable: true, current: false },
      ]);
    });

    it('rotates a key: the new key issued with a key above the old one, then the old key revoked with itself and its own', async () => {
      const root = await t.createKey({ name: 'operator' });
      const old = await issue(root.key, { name: 'in service' });
      const oldChild = await issue(old.key, { name: 'issued by the old key' });
      const replacement = await issue(root.key, { name: 'replacement' });
      const selfRevoked = await revoke(old.key, old.id);
      expect([selfRevoked.status, selfRevoked.text]).toEqual([204, '']);
      for (const key of [old.key, oldChild.key]) {
        const refused = await request(t.baseUrl, 'GET', '/v1/quota/usage', as(key));
        expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
      }
      expect(await usage(replacement.key)).toBe(200);
      const listed = await request(t.baseUrl, 'GET', '/v1/keys', as(replacement.key));
      expect((listed.body as { keys: { id: string }[] }).keys.map((key) => key.id)).toEqual([root.keyId, replacement.id]);
    });
  });

  describe('the admin command', () => {
    it('lists who issued each key, and revokes any key with its descendants, one a partner issued or an operator key', async () => {
      const root = await t.createKey({ name: 'operator root' });
      const child = await issue(root.key, { name: 'partner child' });
      const grandchild = await issue(child.key, { name: 'partner grandchild' });

      const listed = await runAdminCli(t.env, 'list');
      expect([listed.status, listed.stderr]).toEqual([0, '']);
      const lineage = (JSON.parse(listed.stdout) as { keyId: string; userId: string; createdByKeyId: string | null }[])
        .filter((key) => key.userId === root.userId)
        .map(({ keyId, createdByKeyId }) => ({ keyId, createdByKeyId }));
      expect(lineage).toEqual([
        { keyId: root.keyId, createdByKeyId: null },
        { keyId: child.id, createdByKeyId: root.keyId },
        { keyId: grandchild.id, createdByKeyId: child.id },
      ]);

      expect([await usage(root.key), await usage(child.key), await usage(grandchild.key)]).toEqual([200, 200, 200]);
      // The operator's revocation takes the key's descendants along, and leaves its issuer working.
      const revoked = await runAdminCli(t.env, 'revoke', child.id);
      expect([revoked.status, JSON.parse(revoked.stdout)]).toEqual([0, { keyId: child.id, revoked: true }]);
      expect([await usage(root.key), await usage(child.key), await usage(grandchild.key)]).toEqual([200, 401, 401]);
      const again = await runAdminCli(t.env, 'revoke', root.keyId);
      expect([again.status, JSON.parse(again.stdout)]).toEqual([0, { keyId: root.keyId, revoked: true }]);
      expect(await usage(root.key)).toBe(401);
    });
  });
});
