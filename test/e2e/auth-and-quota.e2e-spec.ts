import { QuotaService } from '../../src/quota/quota.service';
import { quotaUsage, request, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Distinct 16-digit numbers the sandbox answers with its not-found page. */
const unknownNumber = (index: number) => `18${String(index).padStart(14, '0')}`;

describe('API keys and the monthly quota', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(null));

  describe('authentication', () => {
    it('accepts the key in X-API-Key and as a Bearer token', async () => {
      const { key } = await t.createKey({ quota: 5 });
      const viaHeader = await quotaUsage(t.baseUrl, key);
      const viaBearer = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { authorization: `Bearer ${key}` } });
      expect(viaHeader.status).toBe(200);
      expect(viaBearer.status).toBe(200);
      expect(viaBearer.body).toEqual(viaHeader.body);
    });

    it('stores only a hash of the key', async () => {
      const { key, keyId } = await t.createKey();
      const { rows } = await t.db.query('SELECT * FROM api_keys WHERE id = $1', [keyId]);
      expect(JSON.stringify(rows[0])).not.toContain(key);
      expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses a key from the moment it expires', async () => {
      t.clock.set('2026-11-10T12:00:00Z');
      const { key } = await t.createKey({ expiresAt: new Date('2026-11-10T12:00:01Z') });
      expect((await quotaUsage(t.baseUrl, key)).status).toBe(200);
      t.clock.set('2026-11-10T12:00:01Z');
      const expired = await quotaUsage(t.baseUrl, key);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid or missing API key' });
      const verifyExpired = await verify(t.baseUrl, key, unknownNumber(1));
      expect(verifyExpired.status).toBe(401);
    });

    it('refuses a revoked key at once, and only that key of the user', async () => {
      const first = await t.createKey({ quota: 3 });
      const second = await t.createKey({ userId: first.userId });
      expect(second.userId).toBe(first.userId);
      await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [first.keyId]);
      expect((await quotaUsage(t.baseUrl, first.key)).status).toBe(401);
      const stillValid = await quotaUsage(t.baseUrl, second.key);
      expect(stillValid.status).toBe(200);
      expect(stillValid.body).toMatchObject({ quota: 3 });
    });
  });

  describe('GET /v1/quota/usage', () => {
    it('reports a fresh limited plan', async () => {
      t.clock.set('2026-11-22T09:00:00Z');
      const { key } = await t.createKey({ quota: 100 });
      const response = await quotaUsage(t.baseUrl, key);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ period: '2026-11', used: 0, quota: 100, remaining: 100 });
    });

    it('reports null quota and remaining for an unlimited plan', async () => {
      t.clock.set('2026-11-22T09:00:00Z');
      const { key } = await t.createKey({ quota: null });
      expect((await verify(t.baseUrl, key, unknownNumber(2))).status).toBe(404);
      const response = await quotaUsage(t.baseUrl, key);
      expect(response.body).toEqual({ period: '2026-11', used: 1, quota: null, remaining: null });
    });

    it('answers many users reading together (their reads share a query) each with its own usage', async () => {
      t.clock.set('2026-11-22T09:00:00Z');
      const users = await Promise.all(Array.from({ length: 12 }, (_, index) => t.createKey({ quota: 100 + index })));
      // User i has used i; the first has never been charged, so its row is missing.
      for (const [index, user] of users.entries()) {
        if (index > 0) await t.db.query(`INSERT INTO quota_usage (user_id, period, used) VALUES ($1, '2026-11', $2)`, [user.userId, index]);
      }
      // Five rounds of every user: consecutive requests come from different users.
      const readers = Array.from({ length: 5 }).flatMap(() => users.map((user, index) => ({ user, index })));
      const answers = await Promise.all(readers.map(({ user }) => quotaUsage(t.baseUrl, user.key)));
      answers.forEach((answer, position) => {
        const { index } = readers[position];
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ period: '2026-11', used: index, quota: 100 + index, remaining: 100 });
      });
    });

    it('shares usage between the keys of one user', async () => {
      const first = await t.createKey({ quota: 10 });
      const second = await t.createKey({ userId: first.userId });
      expect((await verify(t.baseUrl, first.key, unknownNumber(3))).status).toBe(404);
      expect((await verify(t.baseUrl, second.key, unknownNumber(4))).status).toBe(404);
      expect((await quotaUsage(t.baseUrl, first.key)).body).toMatchObject({ used: 2, remaining: 8 });
      expect((await quotaUsage(t.baseUrl, second.key)).body).toMatchObject({ used: 2, remaining: 8 });
    });
  });

  describe('charging', () => {
    it('charges a number once per period and refuses a new number at the limit, while repeats still pass', async () => {
      t.clock.set('2026-11-22T09:00:00Z');
      const { key, userId } = await t.createKey({ quota: 2 });
      expect((await verify(t.baseUrl, key, unknownNumber(10))).status).toBe(404);
      expect((await verify(t.baseUrl, key, unknownNumber(10))).status).toBe(404);
      expect((await verify(t.baseUrl, key, unknownNumber(11))).status).toBe(404);
      expect((await quotaUsage(t.baseUrl, key)).body).toEqual({ period: '2026-11', used: 2, quota: 2, remaining: 0 });

      const refused = await verify(t.baseUrl, key, unknownNumber(12));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        code: 'QUOTA_EXCEEDED',
        message: 'Monthly verification quota exceeded; upgrade the plan to continue',
      });
      // repeats of counted numbers are never refused, with or without an explicit key
      expect((await verify(t.baseUrl, key, unknownNumber(10))).status).toBe(404);
      expect((await verify(t.baseUrl, key, unknownNumber(11), 'another-key')).status).toBe(404);

      const { rows } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY licence_number', [userId]);
      expect(rows.map((row) => row.licence_number)).toEqual([unknownNumber(10), unknownNumber(11)]);
      expect((await quotaUsage(t.baseUrl, key)).body).toMatchObject({ used: 2, remaining: 0 });
    });

    it('starts a new month from zero, and charges a number again in the new month', async () => {
      t.clock.set('2026-11-30T23:59:59.999Z');
      const { key } = await t.createKey({ quota: 1 });
      expect((await verify(t.baseUrl, key, unknownNumber(20))).status).toBe(404);
      expect((await verify(t.baseUrl, key, unknownNumber(21))).status).toBe(429);
      expect((await quotaUsage(t.baseUrl, key)).body).toEqual({ period: '2026-11', used: 1, quota: 1, remaining: 0 });

      t.clock.set('2026-12-01T00:00:00.000Z');
      expect((await quotaUsage(t.baseUrl, key)).body).toEqual({ period: '2026-12', used: 0, quota: 1, remaining: 1 });
      expect((await verify(t.baseUrl, key, unknownNumber(20))).status).toBe(404);
      expect((await quotaUsage(t.baseUrl, key)).body).toEqual({ period: '2026-12', used: 1, quota: 1, remaining: 0 });
      expect((await verify(t.baseUrl, key, unknownNumber(21))).status).toBe(429);
    });

    it('charges exactly min(N, Q) of 60 concurrent charges of distinct numbers', async () => {
      const { userId } = await t.createKey({ quota: 25 });
      const quota = t.app.get(QuotaService);
      const user = { userId, keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 25 };
      const outcomes = await Promise.allSettled(Array.from({ length: 60 }, (_, index) => quota.chargeOnce(user, unknownNumber(100 + index))));
      const charged = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'QUOTA_EXCEEDED');
      expect(charged).toHaveLength(25);
      expect(refused).toHaveLength(35);
      const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
      const charges = await t.db.query('SELECT count(*)::int AS n FROM quota_charges WHERE user_id = $1', [userId]);
      expect(usage.rows).toEqual([{ used: 25 }]);
      expect(charges.rows[0].n).toBe(25);
    });

    it('charges 1 for 50 concurrent charges of the same new number', async () => {
      const { userId } = await t.createKey({ quota: 5 });
      const quota = t.app.get(QuotaService);
      const user = { userId, keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 5 };
      const charges = await Promise.all(Array.from({ length: 50 }, () => quota.chargeOnce(user, unknownNumber(300))));
      expect(charges.filter((charge) => charge.isNew)).toHaveLength(1);
      const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
      expect(usage.rows).toEqual([{ used: 1 }]);
    });

    it("commits many users' charges arriving together in shared statements, beside batch charges, without deadlock or a wrong count", async () => {
      const quota = t.app.get(QuotaService);
      const limit = 9;
      for (let pass = 0; pass < 8; pass++) {
        const users = await Promise.all(
          Array.from({ length: 6 }, async () => ({
            userId: (await t.createKey({ quota: limit })).userId,
            keyId: 'n/a',
            mode: 'live' as const,
            role: 'admin' as const,
            monthlyQuota: limit,
          })),
        );
        const numbersOf = (userIndex: number, from: number, to: number) =>
          Array.from({ length: to - from }, (_, offset) => unknownNumber(2000 + pass * 1000 + userIndex * 20 + from + offset));
        const singles = users.flatMap((user, userIndex) =>
          [...numbersOf(userIndex, 0, 10), ...numbersOf(userIndex, 3, 5)].map((number) => ({ user, number })),
        );
        // The batch charges go out first, so that they hold number rows while the single charges take counters.
        const batchCharges = Promise.allSettled(
          users.flatMap((user, userIndex) => [quota.chargeMany(user, numbersOf(userIndex, 5, 12)), quota.chargeMany(user, numbersOf(userIndex, 8, 14))]),
        );
        const [batchOutcomes, singleOutcomes] = await Promise.all([
          batchCharges,
          Promise.allSettled(singles.map(({ user, number }) => quota.chargeOnce(user, number))),
        ]);
        for (const outcome of [...singleOutcomes, ...batchOutcomes]) {
          if (outcome.status === 'rejected') expect((outcome.reason as { code?: string }).code).toBe('QUOTA_EXCEEDED');
        }
        for (const user of users) {
          const charged = await t.db.query<{ licence_number: string }>('SELECT licence_number FROM quota_charges WHERE user_id = $1', [user.userId]);
          const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [user.userId]);
          expect(usage.rows).toEqual([{ used: charged.rows.length }]);
          expect(charged.rows.length).toBeLessThanOrEqual(limit);
          // Every row was made by exactly one call: a single charge that says it is new, or a batch that lists it.
          const ownSingles = singles.flatMap(({ user: owner, number }, index) => (owner === user ? [{ number, outcome: singleOutcomes[index] }] : []));
          const newBySingles = ownSingles.flatMap(({ outcome }) =>
            outcome.status === 'fulfilled' && outcome.value.isNew ? [outcome.value.licenceNumber] : [],
          );
          const newByBatches = batchOutcomes
            .slice(users.indexOf(user) * 2, users.indexOf(user) * 2 + 2)
            .flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value.map((charge) => charge.licenceNumber) : []));
          expect([...newBySingles, ...newByBatches].sort()).toEqual(charged.rows.map((row) => row.licence_number).sort());
          // A granted single charge (new or repeat) is on the ledger.
          const chargedNumbers = new Set(charged.rows.map((row) => row.licence_number));
          for (const { number, outcome } of ownSingles) if (outcome.status === 'fulfilled') expect(chargedNumbers.has(number)).toBe(true);
        }
      }
    });

    it('charges, batch charges and refunds of the same users in overlapping statements, users in changing orders, never deadlock and count exactly', async () => {
      const quota = t.app.get(QuotaService);
      const limit = 40;
      const users = await Promise.all(
        Array.from({ length: 5 }, async () => ({
          userId: (await t.createKey({ quota: limit })).userId,
          keyId: 'n/a',
          mode: 'live' as const,
          role: 'admin' as const,
          monthlyQuota: limit,
        })),
      );
      const numberOf = (userIndex: number, index: number) => unknownNumber(20_000 + userIndex * 100 + index);
      const work: Promise<unknown>[] = [];
      for (let turn = 0; turn < 40; turn++) {
        // Each turn asks for the users in another order; every fourth turn's charges are refunded as soon as made,
        // while later turns charge the same users (a refund takes the number's row as a charge does).
        const rotated = users.map((_, position) => (position + turn) % users.length);
        const order = turn % 2 === 0 ? rotated : rotated.reverse();
        for (const userIndex of order) {
          for (let k = 0; k < 3; k++) {
            const charging = quota.chargeOnce(users[userIndex], numberOf(userIndex, (turn * 3 + k) % 45));
            work.push(turn % 4 === 0 ? charging.then((charge) => quota.refund(charge)) : charging);
          }
        }
        if (turn % 5 === 0)
          work.push(
            quota.chargeMany(
              users[order[0]],
              [40, 41, 42, 43, 44, 45].map((index) => numberOf(order[0], index)),
            ),
          );
        await new Promise((resolve) => setImmediate(resolve));
      }
      const failures = (await Promise.allSettled(work)).flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as { code?: string }] : []));
      expect(failures.filter((failure) => failure.code !== 'QUOTA_EXCEEDED')).toEqual([]);
      for (const user of users) {
        const charged = await t.db.query('SELECT count(*)::int AS n FROM quota_charges WHERE user_id = $1', [user.userId]);
        const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [user.userId]);
        expect(usage.rows).toEqual([{ used: charged.rows[0].n }]);
        expect(charged.rows[0].n).toBeLessThanOrEqual(limit);
      }
    });

    it('leaves no counter row behind a first charge that was refused, single or batch', async () => {
      const quota = t.app.get(QuotaService);
      const noPlan = await t.createKey({ quota: 0 });
      const small = await t.createKey({ quota: 2 });
      await expect(quota.chargeOnce({ userId: noPlan.userId, monthlyQuota: 0 }, unknownNumber(600))).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      });
      await expect(
        quota.chargeMany({ userId: small.userId, keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 2 }, [
          unknownNumber(601),
          unknownNumber(602),
          unknownNumber(603),
        ]),
      ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
      const counters = await t.db.query('SELECT count(*)::int AS n FROM quota_usage WHERE user_id = ANY($1)', [[noPlan.userId, small.userId]]);
      const charges = await t.db.query('SELECT count(*)::int AS n FROM quota_charges WHERE user_id = ANY($1)', [[noPlan.userId, small.userId]]);
      expect(counters.rows).toEqual([{ n: 0 }]);
      expect(charges.rows).toEqual([{ n: 0 }]);
    });

    it('over HTTP, 50 concurrent verifications of distinct numbers against a quota of 20 charge exactly 20', async () => {
      const { key, userId } = await t.createKey({ quota: 20 });
      const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => verify(t.baseUrl, key, unknownNumber(500 + index))));
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 404)).toHaveLength(20);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
      const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
      expect(usage.rows).toEqual([{ used: 20 }]);
      expect((await quotaUsage(t.baseUrl, key)).body).toMatchObject({ used: 20, quota: 20, remaining: 0 });
    });

    it('a refund undoes exactly one new charge, and a second refund changes nothing', async () => {
      const { userId } = await t.createKey({ quota: 5 });
      const quota = t.app.get(QuotaService);
      const user = { userId, keyId: 'n/a', mode: 'live' as const, role: 'admin' as const, monthlyQuota: 5 };
      const charge = await quota.chargeOnce(user, unknownNumber(400));
      await quota.chargeOnce(user, unknownNumber(401));
      await Promise.all([quota.refund(charge), quota.refund(charge)]);
      const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
      expect(usage.rows).toEqual([{ used: 1 }]);
      const repeat = await quota.chargeOnce(user, unknownNumber(401));
      await quota.refund(repeat);
      expect((await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId])).rows).toEqual([{ used: 1 }]);
    });
  });
});
