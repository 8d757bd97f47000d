/** @alone: needs the whole machine, so runs alone after the rest (the e2e-alone project, jest.config.js). */
import { FOUND_SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';
import { WorkerProcess } from '../support/worker-process';

const WATCHED = 1000;
const CYCLE_SECONDS = 2;
const EARLY = 2_000;
const TOTAL = 20_000;
const CLIENTS = 16;
const CACHED = FOUND_SANDBOX_NUMBERS.slice(0, 4);
// Alone on 2 cores the worker re-checks a few hundred numbers a second; a machine shared with other work, far fewer.
const RECHECKS_WAIT_MS = 900_000;

interface Heaps {
  api: number;
  worker: number;
}

/**
 * A worker re-checking a watchlist on a short cycle, and an API answering cached verifications, both for long
 * enough that anything kept per re-check or per request would show: no listener, timer or map entry may outlive
 * the work that made it. Each process's heap, after a full collection, is compared with its level after the first
 * 2,000 of each.
 */
describe('no growth over time: a soak of re-checks and cached verifications', () => {
  let t: TestApp;
  let api: ApiProcess;
  let worker: WorkerProcess;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    const env = {
      ...t.env,
      WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS),
      REGISTER_MAX_PER_SECOND: '1000',
      WATCH_MAX_REGISTER_SHARE: '1',
      WORKER_CONCURRENCY: '64',
    };
    // One after the other: a process that failed to start leaves the other to afterAll, not orphaned.
    api = await ApiProcess.start(env, { inspect: true });
    worker = await WorkerProcess.start(env, { inspect: true });
    apiKey = (await t.createKey()).key;
  });
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await t.close();
  });

  const verify = (licenceNumber: string) =>
    request(api.baseUrl, 'POST', '/v1/licences/verify', { headers: { 'x-api-key': apiKey }, body: { licenceNumber } });

  /** Sends cached verifications from CLIENTS loops until `count` have been answered; each must be 200 from the cache. */
  async function verifyCached(count: number): Promise<void> {
    let sent = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (sent < count) {
          const licenceNumber = CACHED[sent++ % CACHED.length];
          const answer = await verify(licenceNumber);
          if (answer.status !== 200 || answer.headers.get('x-verification-source') !== 'cache') {
            throw new Error(`a cached verification answered ${answer.status} from ${answer.headers.get('x-verification-source')}: ${answer.text}`);
          }
        }
      }),
    );
  }

  const heaps = async (): Promise<Heaps> => ({ api: await api.heapUsedAfterCollection(), worker: await worker.heapUsedAfterCollection() });

  it(
    `keeps both heaps within 10 % from ${EARLY.toLocaleString('en')} to ${TOTAL.toLocaleString('en')} re-checks and cached verifications`,
    async () => {
      const sandbox = new SandboxAdmin(t.sandbox.url);
      for (const licenceNumber of CACHED) expect((await verify(licenceNumber)).status).toBe(200);
      await sandbox.resetCounts();
      const items = Array.from({ length: WATCHED }, (_, index) => ({ licenceNumber: unknownNumber(77, index) }));
      const added = await request(api.baseUrl, 'POST', '/v1/watchlist:batchAdd', { headers: { 'x-api-key': apiKey }, body: { items } });
      expect(added.body).toEqual({ added: WATCHED, updated: 0 });
      // Every re-check asks the register once (its answer is never newer in the cache): the register counts them.
      const rechecks = async () => (await sandbox.counts()).total;
      const started = Date.now();

      await verifyCached(EARLY);
      await until(rechecks, (count) => count >= EARLY, RECHECKS_WAIT_MS);
      const early = await heaps();
      const earlyAt = { rechecks: await rechecks(), ms: Date.now() - started };

      await verifyCached(TOTAL - EARLY);
      await until(rechecks, (count) => count >= TOTAL, RECHECKS_WAIT_MS);
      const late = await heaps();
      const growth = (key: keyof Heaps) => Math.round(((late[key] - early[key]) / early[key]) * 1000) / 10;
      console.log(
        JSON.stringify({
          soak: {
            early,
            earlyAt,
            late,
            rechecks: await rechecks(),
            ms: Date.now() - started,
            growthPercent: { api: growth('api'), worker: growth('worker') },
          },
        }),
      );

      expect(late.api).toBeLessThan(early.api * 1.1);
      expect(late.worker).toBeLessThan(early.worker * 1.1);
    },
    2 * RECHECKS_WAIT_MS,
  );
});
