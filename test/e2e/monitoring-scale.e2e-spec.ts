import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

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
  afterAll(() => t.close());

  it('looks 1,000 numbers watched by 3 users up 1,000 times per cycle, with one worker and with three', async () => {
    const numbers = Array.from({ length: 1000 }, (_, index) => unknownNumber(2, index));
    for (let user = 0; user < 3; user++) {
      const { key } = await t.createKey();
      const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
        headers: { 'x-api-key': key },
        body: { items: numbers.map((licenceNumber) => ({ licenceNumber })) },
      });
      expect(added.body).toEqual({ added: 1000, updated: 0 });
    }

    /** Sandbox requests for the 1,000 numbers from a reset until every one was asked at least once. */
    async function oneCycle(): Promise<number[]> {
      await sandbox.resetCounts();
      const counts = await until(
        async () => {
          const { byLicence } = await sandbox.counts();
          return numbers.map((number) => byLicence[number] ?? 0);
        },
        (perNumber) => perNumber.every((count) => count >= 1),
        2 * CYCLE_SECONDS * 1000,
      );
      return counts;
    }

    await oneCycle(); // the baseline
    const withOneWorker = await oneCycle();
    expect(withOneWorker.reduce((sum, count) => sum + count, 0)).toBe(1000);
    expect(Math.max(...withOneWorker)).toBe(1);

    await t.startWorker();
    await t.startWorker();
    await oneCycle();
    const withThreeWorkers = await oneCycle();
    expect(withThreeWorkers.reduce((sum, count) => sum + count, 0)).toBe(1000);
    expect(Math.max(...withThreeWorkers)).toBe(1);
  }, 180_000);
});
