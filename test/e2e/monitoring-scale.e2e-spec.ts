/** @alone: a worker's re-check cycle of 1,000 lookups needs the whole machine (project e2e-alone). */
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const CYCLE_SECONDS = 20;
const CYCLE_MS = CYCLE_SECONDS * 1000;
const WATCHERS = 3;
/** Cycles each number is seen through. */
const CYCLES = 3;
/** A bound for CYCLES cycles, however slowly a shared machine sweeps 1,000 numbers: not a figure under test. */
const WAIT_FOR_CYCLES_MS = (CYCLES + 3) * CYCLE_MS;

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
   * 1,000 new numbers watched by 3 users, then the sandbox's request log for them until every number has reached
   * the register three times: each arrival of each number. How fast one machine gets through a cycle is the bench's
   * business; the wait is bounded generously, and the rules below hold whatever the pace.
   */
  async function watchAndRecord(series: number): Promise<{ numbers: string[]; arrivals: Map<string, number[]> }> {
    const numbers = Array.from({ length: 1000 }, (_, index) => unknownNumber(series, index));
    const keys = await Promise.all(Array.from({ length: WATCHERS }, () => t.createKey()));
    await sandbox.resetCounts();
    for (const { key } of keys) {
      const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
        headers: { 'x-api-key': key },
        body: { items: numbers.map((licenceNumber) => ({ licenceNumber })) },
      });
      expect(added.body).toEqual({ added: 1000, updated: 0 });
    }
    const { byLicence } = await until(
      () => sandbox.times(),
      (times) => numbers.every((number) => (times.byLicence[number]?.length ?? 0) >= CYCLES),
      WAIT_FOR_CYCLES_MS,
    );
    // Stop watching, so that the next scenario's cycle runs alone.
    await t.db.query('DELETE FROM watch_entries WHERE user_id = ANY($1)', [keys.map((created) => created.userId)]);
    return { numbers, arrivals: new Map(numbers.map((number) => [number, byLicence[number] ?? []])) };
  }

  function expectOneLookupPerNumberPerCycle({ numbers, arrivals }: Awaited<ReturnType<typeof watchAndRecord>>): void {
    const gaps = numbers.flatMap((number) => {
      const times = arrivals.get(number)!;
      return times.slice(1).map((at, index) => ({ number, ms: at - times[index] }));
    });
    // Never two requests for a number less than a cycle apart: three watchers cost one lookup per cycle, not three.
    expect(gaps.filter(({ ms }) => ms < CYCLE_MS)).toEqual([]);
    // ...and every cycle: each number came round again within the cycle after it fell due, never skipping one.
    expect(gaps.filter(({ ms }) => ms >= 2 * CYCLE_MS)).toEqual([]);
    expect(numbers.filter((number) => arrivals.get(number)!.length < CYCLES)).toEqual([]);
  }

  it(
    'looks 1,000 numbers watched by 3 users up exactly 1,000 times per cycle with one worker, not 3,000',
    async () => {
      expectOneLookupPerNumberPerCycle(await watchAndRecord(2));
    },
    WAIT_FOR_CYCLES_MS + 60_000,
  );

  it(
    'still exactly 1,000 times per cycle with three workers claiming at once',
    async () => {
      await t.startWorker();
      await t.startWorker();
      expect(t.workers).toHaveLength(3);
      expectOneLookupPerNumberPerCycle(await watchAndRecord(6));
    },
    WAIT_FOR_CYCLES_MS + 60_000,
  );
});
