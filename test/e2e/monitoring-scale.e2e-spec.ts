/** @alone: needs the whole machine, so runs alone after the rest (the e2e-alone project, jest.config.js). */
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

// The service spreads a cycle's 1,000 re-checks over the cycle; each number's next request is due a cycle after
// its last answer, so the rule below holds at any pace the machine runs at.
const CYCLE_SECONDS = 10;
const CYCLE_MS = CYCLE_SECONDS * 1000;
// Cycles watched per scenario.
const CYCLES = 3;
const WATCHERS = 3;

interface Recorded {
  numbers: string[];
  /** how long after they became due the last of the 1,000 first reached the register */
  passMs: number;
  /** each number's requests to the register, epoch ms in order */
  arrivals: Map<string, number[]>;
}

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
   * 1,000 new numbers watched by 3 users, then the sandbox's request log for them: first until each has reached the
   * register once, which measures this run's pace (a pass over all 1,000, the worst backlog there is, since they all
   * become due at once), then until each has reached it CYCLES times, within a bound set by that pace.
   */
  async function watchAndRecord(series: number): Promise<Recorded> {
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
    const arrivalsUntil = (asks: number, timeoutMs: number) =>
      until(
        async () => {
          const { byLicence } = await sandbox.times();
          return new Map(numbers.map((number) => [number, byLicence[number] ?? []]));
        },
        (seen) => numbers.every((number) => seen.get(number)!.length >= asks),
        timeoutMs,
      ).catch(() => {
        throw new Error(`Not every number reached the register ${asks} times in ${timeoutMs} ms`);
      });
    // Generous: a stall shows here, a slow pass only in passMs.
    const firstPass = await arrivalsUntil(1, 10 * CYCLE_MS);
    const passMs = Math.max(...numbers.map((number) => firstPass.get(number)![0])) - dueAt;
    const arrivals = await arrivalsUntil(CYCLES, CYCLES * (CYCLE_MS + 2 * passMs) + CYCLE_MS);
    // Stop watching, so that the next scenario's cycle runs alone.
    await t.db.query('DELETE FROM watch_entries WHERE user_id = ANY($1)', [keys.map((created) => created.userId)]);
    return { numbers, passMs, arrivals };
  }

  /**
   * The rule, counted per number's own cycle rather than per fixed window of a cycle (how many a worker gets through in a
   * window is the machine's pace, a bench figure): after its first request, each number reached the register once per
   * cycle: never two requests less than a cycle apart (three watchers or three workers asking each would be), and
   * never left behind for longer than this run's pace explains (a cycle plus two passes), so never a cycle skipped
   * where the machine keeps up.
   */
  function expectOneLookupPerNumberPerCycle({ numbers, passMs, arrivals }: Recorded): void {
    const offCycle = numbers.flatMap((number) => {
      const times = arrivals.get(number)!;
      return times.slice(1).flatMap((at, index) => {
        const gap = at - times[index];
        return gap < CYCLE_MS || gap >= CYCLE_MS + 2 * passMs ? [`${number}: ${gap} ms apart, a pass took ${passMs} ms`] : [];
      });
    });
    expect(offCycle).toEqual([]);
  }

  it('looks 1,000 numbers watched by 3 users up exactly 1,000 times per cycle with one worker, not 3,000', async () => {
    expectOneLookupPerNumberPerCycle(await watchAndRecord(2));
  }, 600_000);

  it('still exactly 1,000 times per cycle with three workers claiming at once', async () => {
    await t.startWorker();
    await t.startWorker();
    expect(t.workers).toHaveLength(3);
    expectOneLookupPerNumberPerCycle(await watchAndRecord(6));
  }, 600_000);
});
