import { ERROR_CODES } from '../../src/errors/error-codes';
import { LOOKUP_PRIORITY } from '../../src/lookups/lookup-jobs';
import { request, TestResponse, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

interface BatchSummary {
  id: string;
  status: string;
  total: number;
  counts: Record<string, number>;
}

const QUEUE_MAX_WAITING = 1500;
const USER_MAX_WAITING_LOOKUPS = 1000;
const REGISTER_MAX_PER_SECOND = 50;
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message };

const numbers = (series: number, count: number) => Array.from({ length: count }, (_, index) => unknownNumber(series, index));

/**
 * Fair use of the register between users (USER_MAX_WAITING_LOOKUPS, and users taking turns within a
 * priority): real API and worker, the sandbox register, and the register budget at 50 lookups a second,
 * so that a roster of 1,000 new numbers keeps the worker busy for about 20 s.
 */
describe('fair use of the register between users', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: {
        QUEUE_MAX_WAITING: String(QUEUE_MAX_WAITING),
        USER_MAX_WAITING_LOOKUPS: String(USER_MAX_WAITING_LOOKUPS),
        REGISTER_MAX_PER_SECOND: String(REGISTER_MAX_PER_SECOND),
        VERIFY_TIMEOUT_MS: '2000',
        // a killed worker's lookups are taken over within seconds
        WORKER_LOCK_DURATION_MS: '2000',
        WORKER_STALLED_INTERVAL_MS: '1000',
      },
    });
  });
  afterAll(() => t.close());

  const postBatch = (apiKey: string, licenceNumbers: string[]) =>
    request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': apiKey },
      body: { items: licenceNumbers.map((licenceNumber) => ({ licenceNumber })) },
    });
  const batch = async (apiKey: string, id: string): Promise<BatchSummary> =>
    (await request(t.baseUrl, 'GET', `/v1/batches/${id}?limit=1`, { headers: { 'x-api-key': apiKey } })).body as BatchSummary;
  const charged = async (userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row: { licence_number: string }) => row.licence_number,
    );
  const batchRows = async (userId: string): Promise<number> =>
    (await t.db.query('SELECT count(*)::int AS n FROM batches WHERE user_id = $1', [userId])).rows[0].n;
  const summary = (response: TestResponse) => {
    const { status, total, counts } = response.body as BatchSummary;
    return { http: response.status, status, total, counts };
  };

  it('refuses a user past their bound with 503, uncharged and without a batch, while other users are served', async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const rostersOfA = [numbers(2301, 1000), numbers(2306, 1000)];

    // Two rosters of 1,000 at once: the bound holds between concurrent requests too.
    const together = await Promise.all(rostersOfA.map((roster) => postBatch(a.key, roster)));
    const first = together.find((response) => response.status !== 503)!;
    expect(summary(first)).toEqual({ http: 202, status: 'RUNNING', total: 1000, counts: expect.objectContaining({ PENDING: expect.any(Number) }) });
    expect(together.filter((response) => response.status === 503).map((response) => response.body)).toEqual([UNAVAILABLE]);
    const firstOfA = rostersOfA[together.indexOf(first)];
    expect(await charged(a.userId)).toEqual(firstOfA);
    const firstId = (first.body as BatchSummary).id;

    // A's second roster of 1,000 new numbers: past A's own bound, refused whole. So is a smaller one that
    // only A's bound refuses (everything waiting stays well below QUEUE_MAX_WAITING): 100 rows past the
    // bound, about 2 s of the register's budget, so that A's lookups finishing meanwhile do not let it in.
    const second = await postBatch(a.key, numbers(2302, 1000));
    expect([second.status, second.body]).toEqual([503, UNAVAILABLE]);
    const parkedOfA = await t.redis.llen(`${t.redisPrefix}:pending:{u${a.userId}}:p${LOOKUP_PRIORITY.batchItem}`);
    expect(parkedOfA).toBeGreaterThan(100);
    const smaller = await postBatch(a.key, numbers(2303, USER_MAX_WAITING_LOOKUPS - parkedOfA + 100));
    expect([smaller.status, smaller.body]).toEqual([503, UNAVAILABLE]);
    expect(await batchRows(a.userId)).toBe(1);
    expect(await charged(a.userId)).toEqual(firstOfA);

    // B, meanwhile: a verification of a new number answers its result, and B's own roster is taken.
    const verification = await verify(t.baseUrl, b.key, unknownNumber(2304, 0));
    expect(verification.status).toBe(404);
    expect(verification.body).toMatchObject({ status: 'NOT_FOUND' });
    const ofB = await postBatch(b.key, numbers(2305, 10));
    expect([200, 202]).toContain(ofB.status);
    expect((await batch(a.key, firstId)).status).toBe('RUNNING');

    const done = await until(
      () => batch(a.key, firstId),
      (view) => view.status === 'COMPLETED',
      60_000,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1000, counts: { NOT_FOUND: 1000, PENDING: 0, ERROR: 0 } });
    expect(await charged(a.userId)).toEqual(firstOfA);
    expect(await charged(b.userId)).toEqual([unknownNumber(2304, 0), ...numbers(2305, 10)].sort());
    expect(await batchRows(b.userId)).toBe(1);
  }, 120_000);

  it("completes a small roster submitted 2 s after another user's roster of 1,000 within 5 s, while that one still runs", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const large = postBatch(a.key, numbers(2311, 1000));
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const started = Date.now();
    const small = await postBatch(b.key, numbers(2312, 10));
    const smallId = (small.body as BatchSummary).id;
    const finished = await until(
      () => batch(b.key, smallId),
      (view) => view.status === 'COMPLETED',
      10_000,
    );
    const elapsed = Date.now() - started;
    const largeId = ((await large).body as BatchSummary).id;
    const stillRunning = await batch(a.key, largeId);

    expect(elapsed).toBeLessThan(5000);
    expect(finished).toMatchObject({ status: 'COMPLETED', total: 10, counts: { NOT_FOUND: 10, PENDING: 0, ERROR: 0 } });
    expect(stillRunning.status).toBe('RUNNING');
    expect(stillRunning.counts.PENDING).toBeGreaterThan(0);
    expect(await charged(b.userId)).toEqual(numbers(2312, 10));

    await until(
      () => batch(a.key, largeId),
      (view) => view.status === 'COMPLETED',
      60_000,
    );
    expect(await charged(a.userId)).toEqual(numbers(2311, 1000));
  }, 120_000);

  it('hands the dispatching over to another worker when the one holding the lease dies', async () => {
    await t.startWorker();
    const leaseHolderPid = async () => Number((await t.redis.get(`${t.redisPrefix}:pending-dispatcher`))?.split(':')[1]);
    const c = await t.createKey();
    const parked = () => t.redis.llen(`${t.redisPrefix}:pending:{u${c.userId}}:p${LOOKUP_PRIORITY.batchItem}`);
    const roster = numbers(2321, 1000);
    const creating = postBatch(c.key, roster);
    await until(parked, (count) => count > 100);
    const dispatching = await leaseHolderPid();
    const [dying, surviving] = t.workers[0].pid === dispatching ? t.workers : [...t.workers].reverse();
    expect(dying.pid).toBe(dispatching);

    await dying.kill();
    const created = await creating;
    expect(created.status).toBe(202);
    await until(leaseHolderPid, (pid) => pid === surviving.pid, 10_000);
    const done = await until(
      () => batch(c.key, (created.body as BatchSummary).id),
      (view) => view.status === 'COMPLETED',
      60_000,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1000, counts: { NOT_FOUND: 1000, PENDING: 0, ERROR: 0 } });
    expect(await parked()).toBe(0);
    expect(await charged(c.userId)).toEqual(roster);
  }, 120_000);
});
