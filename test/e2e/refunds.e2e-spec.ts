import { Client } from 'pg';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { QuotaService } from '../../src/quota/quota.service';
import { ApiProcess } from '../support/api-process';
import { request, TestResponse } from '../support/http';
import { PrivateRedis } from '../support/private-redis';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

/** Distinct 16-digit numbers the sandbox answers with its not-found page. */
const unknownNumber = (index: number) => `18${String(index).padStart(14, '0')}`;

const INTERNAL_ERROR = { code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.message };

/** A refund undoes exactly the charge it is for, and every way a charge can be left without its use is refunded. */
describe('refunds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });

  async function ledger(userId: string): Promise<{ charged: string[]; used: number }> {
    const charges = await t.db.query<{ licence_number: string }>('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
    const usage = await t.db.query<{ used: number }>('SELECT coalesce(sum(used), 0)::int AS used FROM quota_usage WHERE user_id = $1', [userId]);
    return { charged: charges.rows.map((row) => row.licence_number), used: usage.rows[0].used };
  }

  it('a late second refund of a charge leaves the charge made since for the same number', async () => {
    const quota = t.app.get(QuotaService);
    const { userId } = await t.createKey({ quota: 5 });
    const user = { userId, keyId: 'n/a', monthlyQuota: 5 };
    const first = await quota.chargeOnce(user, unknownNumber(1));
    await quota.refund(first);
    const second = await quota.chargeOnce(user, unknownNumber(1));
    // The first charge's refund again, as a sweep that re-runs a refund whose lease ran out would.
    await quota.refund(first);

    expect([first.isNew, second.isNew, first.chargeId === second.chargeId]).toEqual([true, true, false]);
    expect(await ledger(userId)).toEqual({ charged: [unknownNumber(1)], used: 1 });
    await quota.refund(second);
    expect(await ledger(userId)).toEqual({ charged: [], used: 0 });
  });

  describe('a watch entry that cannot be stored', () => {
    const refused = [unknownNumber(20), unknownNumber(21)];

    beforeAll(async () => {
      // A fault of the database's own, for these numbers only: the insert of their entries fails.
      await t.db.query(`CREATE FUNCTION refuse_watch_entry() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN RAISE EXCEPTION 'watch entry refused by the test'; END $$`);
      await t.db.query(`CREATE TRIGGER refuse_watch_entry BEFORE INSERT ON watch_entries FOR EACH ROW
                        WHEN (NEW.licence_number IN ('${refused[0]}', '${refused[1]}')) EXECUTE FUNCTION refuse_watch_entry()`);
    });
    afterAll(async () => {
      await t.db.query('DROP TRIGGER refuse_watch_entry ON watch_entries');
      await t.db.query('DROP FUNCTION refuse_watch_entry()');
    });

    it('PUT: answers 500 and keeps no charge', async () => {
      const { key: apiKey, userId } = await t.createKey({ quota: 5 });
      const answer = await call(apiKey, 'PUT', `/v1/watchlist/${refused[0]}`, { reference: 'r' });

      expect({ status: answer.status, body: answer.body }).toEqual({ status: 500, body: INTERNAL_ERROR });
      expect(await ledger(userId)).toEqual({ charged: [], used: 0 });
    });

    it('batchAdd: answers 500 and keeps none of the charges of the batch', async () => {
      const { key: apiKey, userId } = await t.createKey({ quota: 5 });
      const answer = await call(apiKey, 'POST', '/v1/watchlist:batchAdd', {
        items: [{ licenceNumber: unknownNumber(22) }, { licenceNumber: refused[1] }],
      });

      expect({ status: answer.status, body: answer.body }).toEqual({ status: 500, body: INTERNAL_ERROR });
      expect(await ledger(userId)).toEqual({ charged: [], used: 0 });
    });
  });

  describe('an API process that dies between a charge and its payer record', () => {
    let redis: PrivateRedis;
    const apis: ApiProcess[] = [];

    beforeAll(async () => {
      redis = await PrivateRedis.start();
    });
    afterAll(async () => {
      for (const api of apis) await api.stop();
      await redis.destroy();
    });

    it('leaves the charge to the sweep of the next process, which refunds it', async () => {
      // Room to hold the charge on a row lock while Redis is frozen behind it; the refund intent's lease follows it.
      const env = { ...t.env, REDIS_URL: redis.url, DATABASE_CHARGE_TIMEOUT_MS: '2000' };
      apis.push(await ApiProcess.start(env));
      const { key, userId } = await t.createKey();
      const period = new Date().toISOString().slice(0, 7);
      await t.db.query('INSERT INTO quota_usage (user_id, period, used) VALUES ($1, $2, 0)', [userId, period]);

      // The charge waits on the user's counter row, locked here, until Redis is frozen: it then commits, and the
      // process hangs on Redis where it would record the charge's payer, and is killed there.
      const locker = new Client({ connectionString: t.env.DATABASE_URL });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM quota_usage WHERE user_id = $1 FOR UPDATE', [userId]);
      const answer = fetch(`${apis[0].baseUrl}/v1/licences/verify`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ licenceNumber: unknownNumber(30) }),
      }).then(
        (response) => response.status,
        () => 'no answer',
      );
      await until(
        async () =>
          (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%quota_charge_all%'`)).rows[0]
            .n,
        (waiting) => waiting === 1,
        5000,
      );
      redis.freeze();
      await locker.query('COMMIT');
      await locker.end();
      await until(
        () => ledger(userId),
        ({ charged }) => charged.length === 1,
        5000,
      );
      await apis[0].kill();
      redis.thaw();
      expect(await answer).toBe('no answer');
      expect(await ledger(userId)).toEqual({ charged: [unknownNumber(30)], used: 1 });

      // The next process to start sweeps once the intent's lease (about 9 s from the charge) has run out.
      await new Promise((resolve) => setTimeout(resolve, 9000));
      apis.push(await ApiProcess.start(env));
      await until(
        () => ledger(userId),
        ({ charged }) => charged.length === 0,
        10_000,
      );
      expect(await ledger(userId)).toEqual({ charged: [], used: 0 });
    }, 60_000);
  });
});
