import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber } from '../support/until';

// Long enough for one worker process on a shared 2-core machine to re-check 1,000 numbers in it.
const CYCLE_SECONDS = 20;
const CYCLE_MS = CYCLE_SECONDS * 1000;
const WATCHERS = 3;

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

  /**
   * 1,000 new numbers watched by 3 users, then 3.5 cycles of the sandbox's request log for them:
   * when each number reached the register, counted from the moment they became due.
   */
  async function watchAndRecord(series: number): Promise<{ numbers: string[]; dueAt: number; arrivals: Map<string, number[]> }> {
    const numbers = Array.from({ length: 1000 }, (_, index) => unknownNumber(series, index));
    const keys = await Promise.all(Array.from({ length: WATCHERS }, () => t.createKey()));
    await sandbox.resetCounts();
    const dueAt = Date.now(); // the first batchAdd makes the numbers due
    for (const { key } of keys) {
      const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
        headers: { 'x-api-key': key },
        body: { items: numbers.map((licenceNumber) => ({ licenceNumber })) },
      });
      expect(added.body).toEqual({ added: 1000, updated: 0 });
    }
    await sleep(dueAt + 3.5 * CYCLE_MS - Date.now());
    const { byLicence } = await sandbox.times();
    // Stop watching, so that the next scenario's cycle runs alone.
    await t.db.query('DELETE FROM watch_entries WHERE user_id = ANY($1)', [keys.map((created) => created.userId)]);
    return { numbers, dueAt, arrivals: new Map(numbers.map((number) => [number, byLicence[number] ?? []])) };
  }

  function expectOneLookupPerNumberPerCycle({ numbers, dueAt, arrivals }: Awaited<ReturnType<typeof watchAndRecord>>): void {
    // The first full cycle from when the numbers became due: exactly one upstream request each.
    const inFirstCycle = numbers.map((number) => arrivals.get(number)!.filter((at) => at >= dueAt && at < dueAt + CYCLE_MS).length);
    expect(inFirstCycle.reduce((sum, count) => sum + count, 0)).toBe(1000);
    expect(numbers.filter((_, index) => inFirstCycle[index] !== 1)).toEqual([]);
    // Across the 3.5 cycles: never two requests for a number less than a cycle apart.
    const tooClose = numbers.flatMap((number) => {
      const times = arrivals.get(number)!;
      return times.slice(1).flatMap((at, index) => (at - times[index] < CYCLE_MS ? [`${number}: ${at - times[index]} ms`] : []));
    });
    expect(tooClose).toEqual([]);
    // ...and still every cycle: each number was asked in each of the 3 cycles that fit in the window.
    expect(numbers.filter((number) => arrivals.get(number)!.length < 3)).toEqual([]);
  }

  it('looks 1,000 numbers watched by 3 users up exactly 1,000 times per cycle with one worker, not 3,000', async () => {
    expectOneLookupPerNumberPerCycle(await watchAndRecord(2));
  }, 150_000);

  it('still exactly 1,000 times per cycle with three workers claiming at once', async () => {
    await t.startWorker();
    await t.startWorker();
    expect(t.workers).toHaveLength(3);
    expectOneLookupPerNumberPerCycle(await watchAndRecord(6));
  }, 150_000);
});
