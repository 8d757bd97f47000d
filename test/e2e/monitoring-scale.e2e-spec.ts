import { measureWatchImpact } from '../bench/watch-impact';
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Long enough for one worker process on a shared 2-core machine to re-check 1,000 numbers in it.
const CYCLE_SECONDS = 10;

describe('monitoring at scale: one upstream lookup per number per cycle', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), REGISTER_MAX_PER_SECOND: '1000' },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close(), 120_000);

  it('keeps live verifications answering while a re-check cycle runs (bench scenario)', async () => {
    const watch = await t.createKey();
    const { key: verifyKey } = await t.createKey();
    const impact = await measureWatchImpact({
      baseUrl: t.baseUrl,
      watchKey: watch.key,
      verifyKey,
      watchNumbers: Array.from({ length: 1000 }, (_, index) => unknownNumber(4, index)),
      verifyNumbers: Array.from({ length: 200 }, (_, index) => unknownNumber(5, index)),
    });
    expect(impact.withoutCycle.outcomes).toEqual({ '404': 100 });
    expect(impact.duringCycle.outcomes).toEqual({ '404': 100 });
    const { rows } = await t.db.query('SELECT count(*)::int AS checked FROM licence_states WHERE checked_at IS NOT NULL AND licence_number LIKE $1', ['17000000004%']);
    expect(rows[0].checked).toBeGreaterThan(0); // re-checks did run meanwhile
    // Leave the next test its own numbers only.
    await t.db.query('DELETE FROM watch_entries WHERE user_id = $1', [watch.userId]);
  }, 120_000);

  it('looks 1,000 numbers watched by 3 users up about 1,000 times per cycle, not 3,000, with one worker and with three', async () => {
    const numbers = Array.from({ length: 1000 }, (_, index) => unknownNumber(2, index));
    for (let user = 0; user < 3; user++) {
      const { key } = await t.createKey();
      const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
        headers: { 'x-api-key': key },
        body: { items: numbers.map((licenceNumber) => ({ licenceNumber })) },
      });
      expect(added.body).toEqual({ added: 1000, updated: 0 });
    }

    /**
     * Sandbox requests per number over three cycles. A cycle boundary rarely falls exactly on the
     * window's edges, so a number may be asked 2 to 4 times; one lookup per watcher (3 users) or
     * per worker (3 workers) would make about 9 per number.
     */
    async function threeCycles(): Promise<{ total: number; most: number; least: number }> {
      await sandbox.resetCounts();
      await sleep(3 * CYCLE_SECONDS * 1000);
      const { byLicence } = await sandbox.counts();
      const perNumber = numbers.map((number) => byLicence[number] ?? 0);
      return { total: perNumber.reduce((sum, count) => sum + count, 0), most: Math.max(...perNumber), least: Math.min(...perNumber) };
    }

    await sandbox.resetCounts();
    await until(
      async () => (await sandbox.counts()).byLicence,
      (byLicence) => numbers.every((number) => byLicence[number] >= 1),
      2 * CYCLE_SECONDS * 1000,
    ); // every number has its baseline
    const withOneWorker = await threeCycles();
    expect(withOneWorker.total).toBeGreaterThanOrEqual(2000);
    expect(withOneWorker.total).toBeLessThanOrEqual(4000);
    expect([withOneWorker.least >= 2, withOneWorker.most <= 4]).toEqual([true, true]);

    await t.startWorker();
    await t.startWorker();
    const withThreeWorkers = await threeCycles();
    expect(withThreeWorkers.total).toBeGreaterThanOrEqual(2000);
    expect(withThreeWorkers.total).toBeLessThanOrEqual(4000);
    expect([withThreeWorkers.least >= 2, withThreeWorkers.most <= 4]).toEqual([true, true]);
  }, 180_000);
});
