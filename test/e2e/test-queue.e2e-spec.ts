import { Queue } from 'bullmq';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from '../../src/lookups/lookup-jobs';
import { ApiProcess } from '../support/api-process';
import { request, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

interface BatchSummary {
  id: string;
  status: string;
  total: number;
  counts: Record<string, number>;
}

/** The test register's failures: final, uncharged, never cached, so every verify of them is a new lookup. */
const FAILURE_MAGIC = ['4000000000000503', '4000000000000502'];
const ALL_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'] as const;

const numbers = (series: number, count: number) => Array.from({ length: count }, (_, index) => unknownNumber(series, index));

/**
 * Test traffic and the register's budget (issue 47): with the register at 2 lookups a second, a test key flooding
 * the test register's failure numbers never takes a live lookup's turn. Its lookups run on the test queue, never on
 * the register's limited one, and never reach the register.
 */
describe('test lookups run on a queue of their own, outside the register budget', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let queues: Record<string, Queue>;
  // The roster and the flood go to an API process of its own, as in production: the spec's in-process app shares its
  // event loop with the flood's client, and the ratio would time that.
  let api: ApiProcess;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { REGISTER_MAX_PER_SECOND: '2', RATE_LIMIT_PER_SECOND: '200', RATE_LIMIT_BURST: '200' } });
    sandbox = new SandboxAdmin(t.sandbox.url);
    api = await ApiProcess.start(t.env);
    queues = Object.fromEntries(
      [REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE].map((name) => [
        name,
        new Queue(name, { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` }),
      ]),
    );
  });
  afterAll(async () => {
    await Promise.all(Object.values(queues).map((queue) => queue.close()));
    await api.stop();
    await t.close();
  });

  const batch = async (apiKey: string, id: string): Promise<BatchSummary> =>
    (await request(api.baseUrl, 'GET', `/v1/batches/${id}?limit=1`, { headers: { 'x-api-key': apiKey } })).body as BatchSummary;

  /** Posts a live roster of four new numbers and waits for it to complete; answers how long it took. */
  async function rosterTime(apiKey: string, series: number): Promise<number> {
    const started = Date.now();
    const posted = await request(api.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': apiKey },
      body: { items: numbers(series, 4).map((licenceNumber) => ({ licenceNumber })) },
    });
    // 200 when the roster completed within the request's wait, 202 when it goes on running.
    expect([200, 202]).toContain(posted.status);
    const done = await until(
      () => batch(apiKey, (posted.body as BatchSummary).id),
      (view) => view.status === 'COMPLETED',
      60_000,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', total: 4, counts: { NOT_FOUND: 4, PENDING: 0, ERROR: 0 } });
    return Date.now() - started;
  }

  const jobsOf = async (name: string) => (await queues[name].getJobs([...ALL_STATES])).filter((job) => job !== undefined);

  it("keeps a live roster's lookups in the register's queue while a test key floods failure numbers, which never reach the register", async () => {
    const live = await t.createKey();
    const tester = await t.createKey();
    const testKey = await t.createKey({ userId: tester.userId, test: true });
    await sandbox.resetCounts();

    await rosterTime(live.key, 4700); // the API process's first roster warms it up (about 5 s against 1.2 s after)
    const alone = await rosterTime(live.key, 4701);

    let flooding = true;
    const answers: number[] = [];
    const flood = Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let index = 0; flooding; index++) answers.push((await verify(api.baseUrl, testKey.key, FAILURE_MAGIC[(lane + index) % 2])).status);
      }),
    );
    // The flood runs before the roster is posted: its first failures are in.
    await until(
      async () => answers.length,
      (count) => count >= 4,
      10_000,
    );
    const beside = await rosterTime(live.key, 4702);
    flooding = false;
    await flood;
    console.log(`live roster of 4: ${alone} ms alone, ${beside} ms beside ${answers.length} test failures (ratio ${(beside / alone).toFixed(2)})`);

    // Every flood answer is one of the failures, none a refusal (429) of the test side's bucket, set high here.
    expect([...new Set(answers)].sort()).toEqual([502, 503]);
    const liveJobs = await jobsOf(REGISTER_LOOKUP_QUEUE);
    const testJobs = await jobsOf(TEST_LOOKUP_QUEUE);
    expect(liveJobs.map((job) => job.data.testUserId ?? null)).toEqual(Array<null>(12).fill(null));
    expect(liveJobs.map((job) => ('licenceNumber' in job.data ? job.data.licenceNumber : null)).sort()).toEqual([
      ...numbers(4700, 4),
      ...numbers(4701, 4),
      ...numbers(4702, 4),
    ]);
    expect(testJobs.length).toBeGreaterThanOrEqual(4);
    expect(testJobs.every((job) => job.data.testUserId === testKey.userId && job.id!.startsWith('test-'))).toBe(true);
    expect(new Set(await Promise.all(testJobs.map((job) => job.getState())))).toEqual(new Set(['failed']));
    // The register heard the twelve live numbers once each, and nothing of the test traffic.
    const counts = await sandbox.counts();
    const liveNumbers = [...numbers(4700, 4), ...numbers(4701, 4), ...numbers(4702, 4)];
    expect(counts.byLicence).toEqual(Object.fromEntries(liveNumbers.map((licenceNumber) => [licenceNumber, 1])));
    expect(counts.total).toBe(12);
  }, 120_000);
});
