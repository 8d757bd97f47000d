import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ApiProcess } from '../support/api-process';
import { quotaUsage, verify } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { PrivatePostgres } from '../support/private-postgres';
import { deleteKeysWithPrefix } from '../support/redis-keys';
import { SandboxAdmin } from '../support/sandbox-admin';
import { TEST_REDIS_URL, testRunId } from '../support/test-run';
import { WorkerProcess } from '../support/worker-process';

const UNKNOWN_NUMBER = '1888000000000042';

/**
 * PostgreSQL is the ledger, Redis only speeds repeats up. On a private PostgreSQL the test can
 * stop: a repeat of a charged, cached number needs no database at all, a new number fails fast
 * and uncharged, and a Redis that lost everything never makes a repeat cost twice.
 */
describe('the quota ledger when PostgreSQL or Redis fail', () => {
  let postgres: PrivatePostgres;
  let sandbox: RunningSandbox;
  let api: ApiProcess;
  let worker: WorkerProcess;
  let env: Record<string, string>;
  let redis: Redis;

  beforeAll(async () => {
    postgres = await PrivatePostgres.start();
    sandbox = await startSandbox({ port: 0 });
    env = {
      DATABASE_URL: postgres.url('lvs_ledger'), // created and migrated by the API at start-up
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `${testRunId()}_ledger_${randomBytes(4).toString('hex')}`,
      REGISTER_URL: sandbox.url,
      REGISTER_MAX_PER_SECOND: '200',
      LOOKUP_BACKOFF_MS: '50',
      LOG_FORMAT: 'text',
    };
    api = await ApiProcess.start({ ...env, LOG_LEVEL: 'log' });
    worker = await WorkerProcess.start(env);
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await sandbox?.close();
    await postgres?.destroy();
    redis?.disconnect();
  });

  async function createKey(): Promise<{ key: string; userId: string }> {
    const created = await runAdminCli(env, 'create', '--name', 'ledger', '--quota', '10');
    expect(created.status).toBe(0);
    return JSON.parse(created.stdout);
  }

  async function chargedNumbers(userId: string): Promise<string[]> {
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
      return rows.map((row) => row.licence_number as string);
    } finally {
      await db.end();
    }
  }

  it('answers a repeat of a cached, charged number while PostgreSQL is down, and a new number 503, uncharged', async () => {
    const { key, userId } = await createKey();
    const first = await verify(api.baseUrl, key, SANDBOX_NUMBERS.active);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-verification-source')).toBe('register');
    const repeat = await verify(api.baseUrl, key, SANDBOX_NUMBERS.active);
    expect(repeat.headers.get('x-verification-source')).toBe('cache');

    await postgres.stop();
    try {
      const duringOutage = await verify(api.baseUrl, key, SANDBOX_NUMBERS.active);
      expect(duringOutage.status).toBe(200);
      expect(duringOutage.headers.get('x-verification-source')).toBe('cache');
      expect(duringOutage.body).toEqual(first.body);
      // A new Idempotency-Key is a new check: the same answer, with a verification id of its own.
      const withItsOwnKey = await verify(api.baseUrl, key, SANDBOX_NUMBERS.active, 'outage-1');
      expect(withItsOwnKey.status).toBe(200);
      const { verificationId: ownId, ...ownAnswer } = withItsOwnKey.body as { verificationId: string };
      const { verificationId: firstId, ...firstAnswer } = first.body as { verificationId: string };
      expect(ownAnswer).toEqual(firstAnswer);
      expect(ownId).not.toBe(firstId);

      const startedAt = Date.now();
      const newNumber = await verify(api.baseUrl, key, SANDBOX_NUMBERS.expired);
      // fails fast, well before the 5 s verification timeout, instead of hanging on the database
      expect(Date.now() - startedAt).toBeLessThan(3000);
      expect(newNumber.status).toBe(503);
      expect(newNumber.body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Upstream service is temporarily unavailable; try again later',
      });
      expect(await new SandboxAdmin(sandbox.url).requestsFor(SANDBOX_NUMBERS.expired)).toBe(0);
    } finally {
      await postgres.resume();
    }

    expect(await chargedNumbers(userId)).toEqual([SANDBOX_NUMBERS.active]);
    expect((await quotaUsage(api.baseUrl, key)).body).toMatchObject({ used: 1, quota: 10, remaining: 9 });
    // the database is back, and so is charging
    expect((await verify(api.baseUrl, key, SANDBOX_NUMBERS.expired)).status).toBe(200);
    expect((await quotaUsage(api.baseUrl, key)).body).toMatchObject({ used: 2, remaining: 8 });
  });

  it('after Redis lost every key, charges a repeat no second time: the ledger decides', async () => {
    const { key, userId } = await createKey();
    expect((await verify(api.baseUrl, key, UNKNOWN_NUMBER)).status).toBe(404);
    expect((await verify(api.baseUrl, key, UNKNOWN_NUMBER)).headers.get('x-verification-source')).toBe('cache');
    expect((await quotaUsage(api.baseUrl, key)).body).toMatchObject({ used: 1 });

    // Everything of this deployment goes, as after a Redis restart without persistence: the cached
    // result, the charged markers, the idempotency records and the queue.
    expect(await deleteKeysWithPrefix(redis, `${env.REDIS_PREFIX}:`)).toBeGreaterThan(0);

    const afterFlush = await verify(api.baseUrl, key, UNKNOWN_NUMBER);
    expect(afterFlush.status).toBe(404);
    expect(afterFlush.headers.get('x-verification-source')).toBe('register');
    expect((await verify(api.baseUrl, key, UNKNOWN_NUMBER)).status).toBe(404);
    expect(await new SandboxAdmin(sandbox.url).requestsFor(UNKNOWN_NUMBER)).toBe(2);
    expect(await chargedNumbers(userId)).toEqual([UNKNOWN_NUMBER]);
    expect((await quotaUsage(api.baseUrl, key)).body).toMatchObject({ used: 1, quota: 10, remaining: 9 });
  });
});
