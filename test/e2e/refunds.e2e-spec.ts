import { ERROR_CODES } from '../../src/errors/error-codes';
import { QuotaService } from '../../src/quota/quota.service';
import { request, TestResponse } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Distinct 16-digit numbers the sandbox answers with its not-found page. */
const unknownNumber = (index: number) => `18${String(index).padStart(14, '0')}`;

const INTERNAL_ERROR = { code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.message };

/** A refund undoes exactly the charge it is for, and every way a charge can be left without its use is refunded. */
describe('refunds', () => {
  let t: TestApp;
  let quota: QuotaService;

  beforeAll(async () => {
    t = await startTestApp();
    quota = t.app.get(QuotaService);
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
});
