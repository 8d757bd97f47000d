/** @topologies: runs again on a Redis Cluster and behind PgBouncer (the e2e-topologies project, jest.config.js). */
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { Queue } from 'bullmq';
import { quotaUsage, TestResponse, verify, verifyUntilFinal } from '../support/http';
import { resultCacheKey } from '../support/result-cache-key';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';

const VERIFY_TIMEOUT_MS = 1500;

const PENDING_BODY = {
  status: 'PENDING',
  message: 'Verification is still in progress; retry with the same Idempotency-Key',
  licence: null,
  checkedAt: null,
};

describe('verification flow: queue, worker, 5-second wait, idempotency, cache and charging', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: {
        VERIFY_TIMEOUT_MS: String(VERIFY_TIMEOUT_MS),
        // This app, the sandbox and the 200 concurrent verifications below share the spec's process. One user's 200
        // charges commit one after another (the usage row's lock), and on a busy machine the last of them passed the
        // in-process 5 s charge deadline (8 of 200 answered 503 in a CI run, the last numbers sent). The test checks
        // the answers and the charges, not the pace, so both deadlines are long; no test here waits on either (the
        // slowest fault is 2.3 s).
        DATABASE_CHARGE_TIMEOUT_MS: '20000',
        REGISTER_REQUEST_TIMEOUT_MS: '10000',
        LOOKUP_ATTEMPTS: '3',
        LOOKUP_BACKOFF_MS: '50',
        WORKER_LOCK_DURATION_MS: '2000',
        WORKER_STALLED_INTERVAL_MS: '1000',
        // One user's 200 concurrent lookups below: the per-user live bound (one-road.e2e-spec.ts) raised to hold them.
        USER_MAX_LIVE_LOOKUPS: '200',
      },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());
  afterEach(() => sandbox.clearFaults());

  async function used(apiKey: string): Promise<number> {
    return ((await quotaUsage(t.baseUrl, apiKey)).body as { used: number }).used;
  }

  async function chargeRows(userId: string): Promise<string[]> {
    const { rows } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1', [userId]);
    return rows.map((row) => row.licence_number as string);
  }

  function expectRecentIso(value: unknown, since: number): void {
    expect(typeof value).toBe('string');
    const time = Date.parse(value as string);
    expect(time).toBeGreaterThanOrEqual(since - 1000);
    expect(time).toBeLessThanOrEqual(Date.now());
  }

  describe('outcomes', () => {
    it('FOUND: 200 with the whole licence, the effective key, the source and checkedAt', async () => {
      const { key, userId } = await t.createKey({ quota: 10 });
      const started = Date.now();
      const response = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active);
      expect(response.status).toBe(200);
      const body = response.body as Record<string, unknown>;
      expect(body).toEqual({
        status: 'FOUND',
        message: 'Licence found',
        licence: SANDBOX_LICENCES.active,
        checkedAt: body.checkedAt,
        verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expectRecentIso(body.checkedAt, started);
      expect(response.headers.get('x-verification-source')).toBe('register');
      expect(response.headers.get('idempotency-key')).toMatch(/^auto-[0-9a-f]{40}$/);
      expect(response.headers.get('idempotency-key')).not.toContain(SANDBOX_NUMBERS.active);
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.active)).toBe(1);
      expect(await chargeRows(userId)).toEqual([SANDBOX_NUMBERS.active]);
    });

    it.each([
      ['NOT_FOUND', SANDBOX_NUMBERS.notFound, 404, 'No licence matches the number'],
      ['TOO_MANY_RESULTS (the register says so)', SANDBOX_NUMBERS.tooMany, 409, 'Several licences match the number; the register data needs checking'],
      ['TOO_MANY_RESULTS (two result cards)', SANDBOX_NUMBERS.twoCards, 409, 'Several licences match the number; the register data needs checking'],
    ])('%s: its status with licence null', async (name, number, status, message) => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verify(t.baseUrl, key, number);
      expect(response.status).toBe(status);
      const body = response.body as Record<string, unknown>;
      expect(body).toEqual({
        status: name.split(' ')[0],
        message,
        licence: null,
        checkedAt: body.checkedAt,
        verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(typeof body.checkedAt).toBe('string');
      expect(await used(key)).toBe(1);
    });
  });

  describe('cache', () => {
    it('answers a cached result at once, for any user, without asking the register again', async () => {
      const first = await t.createKey({ quota: 10 });
      const second = await t.createKey({ quota: 10 });
      const fromRegister = await verify(t.baseUrl, first.key, SANDBOX_NUMBERS.expired);
      expect(fromRegister.status).toBe(200);
      const fromCache = await verify(t.baseUrl, second.key, SANDBOX_NUMBERS.expired);
      expect(fromCache.status).toBe(200);
      expect(fromCache.headers.get('x-verification-source')).toBe('cache');
      // The same answer, each its own record: another user's check is another verification.
      const { verificationId: cachedId, ...cachedAnswer } = fromCache.body as { verificationId: string };
      const { verificationId: registerId, ...registerAnswer } = fromRegister.body as { verificationId: string };
      expect(cachedAnswer).toEqual(registerAnswer);
      expect(cachedId).not.toBe(registerId);
      expect((fromCache.body as { licence: { surname: string; licenceSector: null } }).licence).toMatchObject({
        surname: "O'BRIEN",
        licenceSector: null,
        status: 'Expired',
      });
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.expired)).toBe(1);
      // a cache hit is still a verification: each user pays once
      expect(await used(second.key)).toBe(1);
    });

    it('keeps found results for CACHE_TTL_FOUND_SECONDS and misses for CACHE_TTL_NOT_FOUND_SECONDS', async () => {
      const { key } = await t.createKey();
      await verify(t.baseUrl, key, SANDBOX_NUMBERS.nonFrontLine);
      await verify(t.baseUrl, key, '1888000000000077');
      const foundTtl = await t.redis.ttl(resultCacheKey(t.redisPrefix, t.env.REGISTER_URL, SANDBOX_NUMBERS.nonFrontLine));
      const missTtl = await t.redis.ttl(resultCacheKey(t.redisPrefix, t.env.REGISTER_URL, '1888000000000077'));
      expect(foundTtl).toBeGreaterThan(3590);
      expect(foundTtl).toBeLessThanOrEqual(3600);
      expect(missTtl).toBeGreaterThan(590);
      expect(missTtl).toBeLessThanOrEqual(600);
    });
  });

  describe('the wait, PENDING and retries', () => {
    it('answers 202 PENDING after the timeout, then the final result on a retry with the same key, charged once', async () => {
      const { key } = await t.createKey({ quota: 10 });
      await sandbox.setFault({ fault: 'none', latencyMs: VERIFY_TIMEOUT_MS + 700, licenceNumber: SANDBOX_NUMBERS.suspended });
      const first = await verify(t.baseUrl, key, SANDBOX_NUMBERS.suspended, 'retry-demo-1');
      expect(first.status).toBe(202);
      expect(first.body).toEqual(PENDING_BODY);
      expect(first.headers.get('retry-after')).toBe('1');
      expect(first.headers.get('idempotency-key')).toBe('retry-demo-1');
      expect(await used(key)).toBe(1);

      const retry = await verify(t.baseUrl, key, SANDBOX_NUMBERS.suspended, 'retry-demo-1');
      expect(retry.status).toBe(200);
      expect(retry.headers.get('x-verification-source')).toBe('register');
      expect(retry.body).toMatchObject({ status: 'FOUND', licence: { status: 'Suspended' } });
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.suspended)).toBe(1);
      expect(await used(key)).toBe(1);
    });

    it('keeps idempotency records for IDEMPOTENCY_TTL_SECONDS (24 hours by default)', async () => {
      const { key, userId } = await t.createKey();
      await verify(t.baseUrl, key, '1888000000000078', 'ttl-check');
      const keys = await t.redis.keys(`${t.redisPrefix}:idempotency:${userId}:*`);
      expect(keys).toHaveLength(1);
      expect(await t.redis.ttl(keys[0])).toBeGreaterThan(86_390);
    });

    it('makes one upstream call and one charge per user for 50 concurrent identical requests from two users', async () => {
      const alice = await t.createKey({ quota: 5 });
      const bob = await t.createKey({ quota: 5 });
      await sandbox.setFault({ fault: 'none', latencyMs: 300, licenceNumber: SANDBOX_NUMBERS.revoked });
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, index) => verify(t.baseUrl, index % 2 === 0 ? alice.key : bob.key, SANDBOX_NUMBERS.revoked)),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
      // One answer; one record per user (each user's plain repeats share its derived key, so its id).
      const answers = responses.map((response) => response.body as { verificationId: string });
      expect(new Set(answers.map(({ verificationId: _id, ...answer }) => JSON.stringify(answer))).size).toBe(1);
      expect(new Set(answers.filter((_, index) => index % 2 === 0).map((answer) => answer.verificationId)).size).toBe(1);
      expect(new Set(answers.filter((_, index) => index % 2 === 1).map((answer) => answer.verificationId)).size).toBe(1);
      expect(answers[0].verificationId).not.toBe(answers[1].verificationId);
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.revoked)).toBe(1);
      expect(await chargeRows(alice.userId)).toEqual([SANDBOX_NUMBERS.revoked]);
      expect(await chargeRows(bob.userId)).toEqual([SANDBOX_NUMBERS.revoked]);
      expect(await used(alice.key)).toBe(1);
      expect(await used(bob.key)).toBe(1);
    });
    it('answers 200 concurrent verifications of distinct new numbers, each with its final result', async () => {
      // Regression: a job finishing between the waiter's look at it and its state once gave a null result (500).
      const { key } = await t.createKey();
      // Asked again after a 202, as a partner does: on a busy machine 200 lookups can outlast the 1.5 s wait. One
      // user's 200 new charges at once commit within this spec's charge deadline: no 503. Every number ends charged
      // exactly once.
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, index) => verifyUntilFinal(t.baseUrl, key, String(1_600_000_000_000_000 + index))),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(200).fill(404));
      expect(await used(key)).toBe(200);
    });
  });

  describe('idempotency keys', () => {
    it('refuses reusing a key with another licence number, leaving no charge', async () => {
      const { key, userId } = await t.createKey({ quota: 10 });
      expect((await verify(t.baseUrl, key, '1888000000000001', 'order-42')).status).toBe(404);
      const reused = await verify(t.baseUrl, key, '1888000000000002', 'order-42');
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Idempotency-Key was already used with a different licence number',
      });
      expect(await chargeRows(userId)).toEqual(['1888000000000001']);
      expect(await sandbox.requestsFor('1888000000000002')).toBe(0);
    });

    it("scopes keys per user: another user's key of the same name is theirs alone", async () => {
      const alice = await t.createKey();
      const bob = await t.createKey();
      await sandbox.setFault({ fault: 'none', latencyMs: VERIFY_TIMEOUT_MS + 800, licenceNumber: SANDBOX_NUMBERS.refused });
      const alicePending = await verify(t.baseUrl, alice.key, SANDBOX_NUMBERS.refused, 'shared-name');
      expect(alicePending.status).toBe(202);
      // Bob's "shared-name" is a different key: another number is fine, and he does not see Alice's lookup
      const bobsOwn = await verify(t.baseUrl, bob.key, '1888000000000003', 'shared-name');
      expect(bobsOwn.status).toBe(404);
      expect(bobsOwn.body).toMatchObject({ status: 'NOT_FOUND' });
      expect(await chargeRows(bob.userId)).toEqual(['1888000000000003']);
      const aliceFinal = await verify(t.baseUrl, alice.key, SANDBOX_NUMBERS.refused, 'shared-name');
      expect(aliceFinal.status).toBe(200);
      expect(aliceFinal.body).toMatchObject({ status: 'FOUND', licence: { status: 'Refused' } });
    });
    it('answers requests of many users arriving together (their claims go to Redis in one script call) each with its own number and key', async () => {
      const users = await Promise.all(Array.from({ length: 8 }, () => t.createKey()));
      const numbers = [SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.revoked, SANDBOX_NUMBERS.suspended, '1888000000000004'];
      // Cached first, so that the burst below is answered from the claims alone.
      for (const number of numbers) await verify(t.baseUrl, users[0].key, number);
      const asked = users.flatMap((user, userIndex) =>
        numbers.map((number, numberIndex) => ({ user, number, idempotencyKey: `burst-${userIndex}-${numberIndex}` })),
      );
      const answers = await Promise.all(asked.map(({ user, number, idempotencyKey }) => verify(t.baseUrl, user.key, number, idempotencyKey)));
      answers.forEach((answer, index) => {
        const { number, idempotencyKey } = asked[index];
        expect(answer.headers.get('idempotency-key')).toBe(idempotencyKey);
        expect(answer.headers.get('x-verification-source')).toBe('cache');
        if (number.startsWith('1888')) {
          expect(answer.status).toBe(404);
        } else {
          expect(answer.status).toBe(200);
          expect(answer.body).toMatchObject({ status: 'FOUND', licence: { licenceNumber: number } });
        }
      });
      for (const user of users) expect((await chargeRows(user.userId)).sort()).toEqual([...numbers].sort());
      // The same keys again: each is bound to its own number, for its own user only.
      const repeat = await verify(t.baseUrl, users[3].key, numbers[0], 'burst-3-1');
      expect(repeat.status).toBe(400);
    });
  });

  describe('upstream failures', () => {
    it('recovers from a register failing twice within the retries: 200, three upstream calls', async () => {
      const { key } = await t.createKey({ quota: 10 });
      await sandbox.setFault({ fault: 'status-503', times: 2, licenceNumber: SANDBOX_NUMBERS.withConditions });
      const response = await verify(t.baseUrl, key, SANDBOX_NUMBERS.withConditions);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'FOUND' });
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.withConditions)).toBe(3);
      expect(await used(key)).toBe(1);
    });

    it.each([
      ['5xx', SANDBOX_NUMBERS.fault503],
      ['429', SANDBOX_NUMBERS.fault429],
      ['connection reset', SANDBOX_NUMBERS.faultReset],
    ])('answers 503 after the retries when the register keeps failing (%s), refunded, not cached', async (_name, number) => {
      const { key, userId } = await t.createKey({ quota: 10 });
      const response = await verify(t.baseUrl, key, number);
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Upstream service is temporarily unavailable; try again later',
      });
      expect(await sandbox.requestsFor(number)).toBe(3);
      expect(await used(key)).toBe(0);
      expect(await chargeRows(userId)).toEqual([]);
      expect(await t.redis.exists(resultCacheKey(t.redisPrefix, t.env.REGISTER_URL, number))).toBe(0);
    });

    it.each([
      ['a maintenance page served as 200', SANDBOX_NUMBERS.faultMaintenance],
      ['truncated HTML', SANDBOX_NUMBERS.faultTruncated],
      ['a redirect', SANDBOX_NUMBERS.faultRedirect],
    ])('answers 502 for %s, without retrying, refunded', async (_name, number) => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verify(t.baseUrl, key, number);
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ code: 'PARSE_ERROR', message: 'Upstream service returned an unexpected response' });
      expect(await sandbox.requestsFor(number)).toBe(1);
      expect(await used(key)).toBe(0);
    });

    it('charges a retry after a failure again only when it succeeds', async () => {
      const { key, userId } = await t.createKey({ quota: 10 });
      await sandbox.setFault({ fault: 'status-500', times: 3, licenceNumber: SANDBOX_NUMBERS.surrendered });
      const failed = await verify(t.baseUrl, key, SANDBOX_NUMBERS.surrendered, 'try-again');
      expect(failed.status).toBe(503);
      expect(await used(key)).toBe(0);
      const succeeded = await verify(t.baseUrl, key, SANDBOX_NUMBERS.surrendered, 'try-again');
      expect(succeeded.status).toBe(200);
      expect(await chargeRows(userId)).toEqual([SANDBOX_NUMBERS.surrendered]);
      expect(await used(key)).toBe(1);
    });

    it('forgets who paid for a lookup once it succeeds', async () => {
      const { key } = await t.createKey({ quota: 10 });
      expect((await verify(t.baseUrl, key, '1888000000000098')).status).toBe(404);
      let left = await t.redis.keys(`${t.redisPrefix}:payers:*`);
      for (let waited = 0; left.length > 0 && waited < 3_000; waited += 100) {
        await sleep(100);
        left = await t.redis.keys(`${t.redisPrefix}:payers:*`);
      }
      expect(left).toEqual([]);
      expect(await used(key)).toBe(1);
    });

    it('refunds a client that got 202 and never came back when the lookup then fails', async () => {
      const { key } = await t.createKey({ quota: 10 });
      await sandbox.setFault({ fault: 'status-503', latencyMs: 700, licenceNumber: '1888000000000099' });
      const pending = await verify(t.baseUrl, key, '1888000000000099');
      expect(pending.status).toBe(202);
      expect(await used(key)).toBe(1);
      for (let waited = 0; (await sandbox.requestsFor('1888000000000099')) < 3 && waited < 10_000; waited += 100) await sleep(100);
      for (let waited = 0; (await used(key)) !== 0 && waited < 5_000; waited += 100) await sleep(100);
      expect(await used(key)).toBe(0);
    });
  });

  describe('quota', () => {
    it('refuses a new number at the limit without enqueueing a lookup; repeats still pass', async () => {
      const { key } = await t.createKey({ quota: 1 });
      expect((await verify(t.baseUrl, key, '1888000000000010')).status).toBe(404);
      const refused = await verify(t.baseUrl, key, '1888000000000011');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        code: 'QUOTA_EXCEEDED',
        message: 'Monthly verification quota exceeded; upgrade the plan to continue',
      });
      expect(await sandbox.requestsFor('1888000000000011')).toBe(0);
      expect((await verify(t.baseUrl, key, '1888000000000010')).status).toBe(404);
      expect((await verify(t.baseUrl, key, '1888000000000010', 'fresh-key')).status).toBe(404);
    });
  });

  describe('the queue', () => {
    it('removes finished jobs after a bounded age and count', async () => {
      const { key } = await t.createKey();
      await verify(t.baseUrl, key, '1888000000000020');
      // The test's own client: it reaches the queue's keys on every topology (see TestApp.redis).
      const queue = new Queue('register-lookup', { connection: t.redis, prefix: `${t.redisPrefix}:bull` });
      try {
        const [job] = await queue.getJobs(['completed'], 0, 0);
        expect(job.opts.removeOnComplete).toEqual({ age: 3600, count: 10_000 });
        expect(job.opts.removeOnFail).toEqual({ age: 86_400, count: 10_000 });
        expect(job.opts.attempts).toBe(3);
      } finally {
        await queue.close();
      }
    });

    it('with three workers, makes one upstream call for 60 concurrent requests and spreads other lookups', async () => {
      await t.startWorker();
      await t.startWorker();
      const { key } = await t.createKey();
      await sandbox.setFault({ fault: 'none', latencyMs: 300, licenceNumber: SANDBOX_NUMBERS.unknownStatus });
      const same = await Promise.all(Array.from({ length: 60 }, () => verifyUntilFinal(t.baseUrl, key, SANDBOX_NUMBERS.unknownStatus)));
      expect(same.map((response) => response.status)).toEqual(Array(60).fill(200));
      expect(same[0].body).toMatchObject({ licence: { status: 'Under Review' } });
      expect(await sandbox.requestsFor(SANDBOX_NUMBERS.unknownStatus)).toBe(1);

      const distinct = await Promise.all(
        Array.from({ length: 60 }, (_, index) => verifyUntilFinal(t.baseUrl, key, String(1_700_000_000_000_000 + index))),
      );
      expect(distinct.map((response) => response.status)).toEqual(Array(60).fill(404));
      for (let index = 0; index < 60; index++) {
        expect(await sandbox.requestsFor(String(1_700_000_000_000_000 + index))).toBe(1);
      }
    });

    it('loses nothing when the worker is killed mid-lookup: a new worker finishes it and the client gets its answer', async () => {
      const { key, userId } = await t.createKey({ quota: 10 });
      const number = '1888000000000030';
      await sandbox.setFault({ fault: 'none', latencyMs: 2500, times: 1, licenceNumber: number });
      const pending = await verify(t.baseUrl, key, number, 'survives-kill');
      expect(pending.status).toBe(202);
      expect(await sandbox.requestsFor(number)).toBe(1); // the lookup is under way in the worker
      await Promise.all(t.workers.map((worker) => worker.kill())); // whichever has the job dies with it
      await t.startWorker();

      let final: TestResponse = pending;
      for (let attempt = 0; attempt < 20 && final.status === 202; attempt++) {
        final = await verify(t.baseUrl, key, number, 'survives-kill');
      }
      expect(final.status).toBe(404);
      expect(final.body).toMatchObject({ status: 'NOT_FOUND' });
      expect(await sandbox.requestsFor(number)).toBe(2);
      expect(await chargeRows(userId)).toEqual([number]);
    });
  });
});
