import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from '../../src/lookups/lookup-jobs';
import { request, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const MAX_WAITING = 5;
const unknownNumber = (index: number) => `1766${String(index).padStart(12, '0')}`;

/** QUEUE_MAX_WAITING: with no worker running, lookups pile up until the bound, then new ones are refused; each queue has its own. */
describe('the bound on waiting lookups', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { QUEUE_MAX_WAITING: String(MAX_WAITING), VERIFY_TIMEOUT_MS: '300' } });
  });
  afterAll(() => t.close());

  // Live lookups wait in BullMQ's prioritised set, in their users' turns (one-road.e2e-spec.ts); test lookups in a queue of their own.
  const waitingIn = async (queue: string) =>
    (await t.redis.llen(`${t.redisPrefix}:bull:${queue}:wait`)) + (await t.redis.zcard(`${t.redisPrefix}:bull:${queue}:prioritized`));
  const waiting = () => waitingIn(REGISTER_LOOKUP_QUEUE);
  const REFUSED = [503, { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message }];

  it('answers new numbers 503 at once, uncharged and not enqueued, while that many lookups wait; and takes them again once the queue drains', async () => {
    const { key, userId } = await t.createKey();
    const first = await Promise.all(Array.from({ length: MAX_WAITING }, (_, index) => verify(t.baseUrl, key, unknownNumber(index))));
    expect(first.map((response) => response.status)).toEqual(Array(MAX_WAITING).fill(202));
    expect(await waiting()).toBe(MAX_WAITING);
    // Past the 250 ms an API process trusts a count it read (WAITING_COUNT_LIFE_MS): a sleep, which only ever
    // overshoots, since no signal says the read has aged. "At once" is the 503 itself: a lookup let through would
    // answer 202 at VERIFY_TIMEOUT_MS and be enqueued, which the count below would show.
    await sleep(300);

    const refused = await Promise.all(Array.from({ length: 10 }, (_, index) => verify(t.baseUrl, key, unknownNumber(100 + index))));
    expect(refused.map((response) => [response.status, response.body])).toEqual(Array(10).fill(REFUSED));
    expect(await waiting()).toBe(MAX_WAITING);
    const { rows } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(rows.map((row) => row.licence_number)).toEqual(Array.from({ length: MAX_WAITING }, (_, index) => unknownNumber(index)));

    // A batch that needs new lookups is refused the same way: no charge, no batch, nothing enqueued.
    const batch = await postBatch(key, [unknownNumber(0), unknownNumber(300), unknownNumber(301)]);
    expect([batch.status, batch.body]).toEqual(REFUSED);
    expect(await waiting()).toBe(MAX_WAITING);
    expect((await t.db.query('SELECT count(*)::int AS n FROM batches WHERE user_id = $1', [userId])).rows[0].n).toBe(0);
    expect((await t.db.query('SELECT count(*)::int AS n FROM quota_charges WHERE user_id = $1', [userId])).rows[0].n).toBe(MAX_WAITING);

    const worker = await t.startWorker();
    await until(waiting, (count) => count === 0, 20_000);
    // Taken again once this process reads the drained count; until then it still refuses (503), and a lookup the worker is
    // slow to answer is 202 until its 404 is cached.
    await until(
      () => verify(t.baseUrl, key, unknownNumber(200)),
      (response) => response.status === 404,
      20_000,
    );

    // Full again, with no worker: a batch the cache answers whole is still served at once.
    await worker.stop();
    const refill = await Promise.all(Array.from({ length: MAX_WAITING }, (_, index) => verify(t.baseUrl, key, unknownNumber(400 + index))));
    expect(refill.map((response) => response.status)).toEqual(Array(MAX_WAITING).fill(202));
    await sleep(300); // the count's life again: the API knows the queue is full
    const cachedBatch = await postBatch(key, [unknownNumber(0), unknownNumber(1), unknownNumber(200)]);
    expect(cachedBatch.status).toBe(200);
    expect(cachedBatch.body).toMatchObject({ status: 'COMPLETED', total: 3, counts: { NOT_FOUND: 3, PENDING: 0 } });
    expect(await waiting()).toBe(MAX_WAITING);
  });

  it("bounds a test key's lookups by the test queue alone: queued while the live queue is full, refused at their own bound, never refusing a live lookup", async () => {
    const { key } = await t.createKey();
    const tester = await t.createKey();
    const testKey = await t.createKey({ userId: tester.userId, test: true });
    // The live queue at its bound, with no worker to drain it (as the test above leaves it, topped up if need be).
    const room = MAX_WAITING - (await waiting());
    await Promise.all(Array.from({ length: room }, (_, index) => verify(t.baseUrl, key, unknownNumber(500 + index))));
    expect(await waiting()).toBe(MAX_WAITING);
    await sleep(300); // the count's life: the API knows the live queue is full

    const tests = await Promise.all(Array.from({ length: MAX_WAITING }, (_, index) => verify(t.baseUrl, testKey.key, unknownNumber(600 + index))));
    expect(tests.map((response) => response.status)).toEqual(Array(MAX_WAITING).fill(202));
    expect([await waitingIn(TEST_LOOKUP_QUEUE), await waiting()]).toEqual([MAX_WAITING, MAX_WAITING]);
    await sleep(300);
    const beyond = await Promise.all(Array.from({ length: 3 }, (_, index) => verify(t.baseUrl, testKey.key, unknownNumber(700 + index))));
    expect(beyond.map((response) => [response.status, response.body])).toEqual(Array(3).fill(REFUSED));
    expect(await waitingIn(TEST_LOOKUP_QUEUE)).toBe(MAX_WAITING);

    // The live queue emptied while the test queue stays at its bound: live lookups are queued again.
    const registerQueue = new Queue(REGISTER_LOOKUP_QUEUE, { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
    try {
      await registerQueue.drain();
    } finally {
      await registerQueue.close();
    }
    await sleep(300);
    const other = await t.createKey();
    const live = await Promise.all(Array.from({ length: 2 }, (_, index) => verify(t.baseUrl, other.key, unknownNumber(800 + index))));
    expect(live.map((response) => response.status)).toEqual([202, 202]);
    expect([await waitingIn(TEST_LOOKUP_QUEUE), await waiting()]).toEqual([MAX_WAITING, 2]);
  });

  const postBatch = (apiKey: string, numbers: string[]) =>
    request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': apiKey },
      body: { items: numbers.map((licenceNumber) => ({ licenceNumber })) },
    });
});
