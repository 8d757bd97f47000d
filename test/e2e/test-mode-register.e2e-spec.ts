import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreatedKey } from '../../src/auth/api-keys.service';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { quotaUsed, request, searchLicences, TestResponse, verify, verifyHolder } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const CYCLE_SECONDS = 2;

/** A magic licence as verify shows it: the card has no date of birth or licence type. */
const magic = (licenceNumber: string, surname: string, status: string, expiryDate = '2030-01-01') => ({
  licenceNumber,
  firstName: 'TEST',
  surname,
  dateOfBirth: null,
  licenceType: null,
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate,
  status,
  statusReason: null,
  additionalConditions: null,
});

describe('test mode: the built-in test register answers test keys, never REGISTER_URL', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let live: CreatedKey;
  let side: CreatedKey;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), HOLDER_DATA_KEY: 'e3'.repeat(32) } });
    sandbox = new SandboxAdmin(t.sandbox.url);
    live = await t.createKey({ quota: 10, name: 'live side' });
    side = await t.createKey({ userId: live.userId, test: true });
  });
  afterAll(() => t.close());

  const used = (key: string): Promise<number> => quotaUsed(t.baseUrl, key);
  const call = (key: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
  const found = (response: TestResponse) => (response.body as { licence: unknown }).licence;

  it('answers each FOUND magic number with its licence', async () => {
    for (const [licenceNumber, surname, status, expiryDate] of [
      ['4000000000000001', 'ACTIVE', 'Active', '2030-01-01'],
      ['4000000000000002', 'EXPIRED', 'Expired', '2024-01-01'],
      ['4000000000000003', 'REVOKED', 'Revoked', '2030-01-01'],
      ['4000000000000004', 'SUSPENDED', 'Suspended', '2030-01-01'],
      ['4000000000000005', 'REPLACED', 'Replaced', '2030-01-01'],
      ['4000000000000006', 'REPLACED', 'Active', '2031-01-01'],
    ]) {
      const response = await verify(t.baseUrl, side.key, licenceNumber);
      expect([licenceNumber, response.status, (response.body as { status: string }).status]).toEqual([licenceNumber, 200, 'FOUND']);
      expect(found(response)).toEqual(magic(licenceNumber, surname, status, expiryDate));
    }
  });

  it('answers 4000000000000404 NOT_FOUND, 4000000000000409 TOO_MANY_RESULTS, and any other number as the demo data says', async () => {
    const notFound = await verify(t.baseUrl, side.key, '4000000000000404');
    expect([notFound.status, notFound.body]).toEqual([404, expect.objectContaining({ status: 'NOT_FOUND', licence: null })]);
    const tooMany = await verify(t.baseUrl, side.key, '4000000000000409');
    expect([tooMany.status, tooMany.body]).toEqual([409, expect.objectContaining({ status: 'TOO_MANY_RESULTS', licence: null })]);
    const jane = await verify(t.baseUrl, side.key, SANDBOX_NUMBERS.active);
    expect([jane.status, found(jane)]).toEqual([200, SANDBOX_LICENCES.active]);
    expect((await verify(t.baseUrl, side.key, SANDBOX_NUMBERS.notFound)).status).toBe(404);
    expect((await verify(t.baseUrl, side.key, SANDBOX_NUMBERS.tooMany)).status).toBe(409);
  });

  it('answers 4000000000000503 with 503 and 4000000000000502 with 502, uncharged, and leaves the breaker alone', async () => {
    const usedBefore = await used(side.key);
    for (const [licenceNumber, code] of [
      ['4000000000000503', 'SERVICE_UNAVAILABLE'],
      ['4000000000000502', 'PARSE_ERROR'],
      [SANDBOX_NUMBERS.fault503, 'SERVICE_UNAVAILABLE'],
      [SANDBOX_NUMBERS.faultMaintenance, 'PARSE_ERROR'],
    ] as const) {
      const started = Date.now();
      const response = await verify(t.baseUrl, side.key, licenceNumber);
      expect([licenceNumber, response.status, response.body]).toEqual([
        licenceNumber,
        ERROR_CODES[code].status,
        { code, message: ERROR_CODES[code].message },
      ]);
      // Its failure is its answer: no retries with backoff.
      expect(Date.now() - started).toBeLessThan(3000);
    }
    await until(
      () => used(side.key),
      (value) => value === usedBefore,
    );
    await sleep(500);
    expect(await used(side.key)).toBe(usedBefore);
    expect(await t.redis.exists(`${t.redisPrefix}:register-breaker`)).toBe(0);
  });

  it('answers 4000000000000202 after 8 s every time: 202 PENDING first, FOUND on the retry, never cached', async () => {
    for (const attempt of ['first', 'second']) {
      const started = Date.now();
      const pending = await verify(t.baseUrl, side.key, '4000000000000202', `slow-${attempt}`);
      expect([attempt, pending.status, (pending.body as { status: string }).status]).toEqual([attempt, 202, 'PENDING']);
      const retry = await verify(t.baseUrl, side.key, '4000000000000202', `slow-${attempt}`);
      expect([attempt, retry.status, found(retry)]).toEqual([attempt, 200, magic('4000000000000202', 'PENDING', 'Active')]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
      expect(Date.now() - started).toBeLessThan(12_000);
    }
  }, 40_000);

  it("answers the demo's slow numbers after 8 s too: 202 first, then what the data set says", async () => {
    const started = Date.now();
    const pending = await verify(t.baseUrl, side.key, '1077000000000001', 'demo-slow');
    expect([pending.status, (pending.body as { status: string }).status]).toEqual([202, 'PENDING']);
    const retry = await verify(t.baseUrl, side.key, '1077000000000001', 'demo-slow');
    expect([retry.status, (retry.body as { status: string }).status]).toEqual([404, 'NOT_FOUND']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
  }, 20_000);

  it('confirms a holder, searches by name, checks a roster and watches a number in the test world', async () => {
    const holder = await verifyHolder(t.baseUrl, side.key, {
      licenceNumber: '4000000000000001',
      firstName: 'Test',
      surname: 'Active',
      dateOfBirth: '1990-01-01',
    });
    expect([holder.status, found(holder)]).toEqual([200, magic('4000000000000001', 'ACTIVE', 'Active')]);
    expect((holder.body as { holderCheck: unknown }).holderCheck).toEqual({ name: 'MATCH', dateOfBirth: 'CONFIRMED' });

    const search = await searchLicences(t.baseUrl, side.key, { surname: 'Replaced' });
    expect(search.status).toBe(200);
    expect((search.body as { licences: { licenceNumber: string }[] }).licences.map((licence) => licence.licenceNumber).sort()).toEqual([
      '4000000000000005',
      '4000000000000006',
    ]);

    const roster = await call(side.key, 'POST', '/v1/batches', { licenceNumbers: ['4000000000000003', '4000000000000404', '4000000000000503'] });
    expect([200, 202]).toContain(roster.status);
    const batchId = (roster.body as { id: string }).id;
    const batch = await until(
      async () =>
        (await call(side.key, 'GET', `/v1/batches/${batchId}`)).body as {
          status: string;
          items: { licenceNumber: string; status: string; errorCode?: string | null }[];
        },
      (body) => body.status === 'COMPLETED',
    );
    expect(batch.items.map(({ licenceNumber, status }) => [licenceNumber, status])).toEqual([
      ['4000000000000003', 'FOUND'],
      ['4000000000000404', 'NOT_FOUND'],
      ['4000000000000503', 'ERROR'],
    ]);

    expect((await call(side.key, 'PUT', '/v1/watchlist/4000000000000004', { reference: 'test-watch' })).status).toBe(201);
    const entry = await until(
      async () =>
        ((await call(side.key, 'GET', '/v1/watchlist')).body as { items: { licenceNumber: string; checkedAt: string | null; licence: unknown }[] })
          .items[0],
      (item) => item?.checkedAt !== null,
      4 * CYCLE_SECONDS * 1000 + 10_000,
    );
    expect(entry.licence).toEqual(magic('4000000000000004', 'SUSPENDED', 'Suspended'));
    // A live watcher of the same number has a world of its own: the register's answer, not the test one.
    const [{ count }] = (await t.db.query(`SELECT count(*)::int AS count FROM licence_states WHERE licence_number = '4000000000000004'`)).rows;
    expect(count).toBe(1);
  }, 60_000);

  it('sent none of that to REGISTER_URL, and left the live usage untouched', async () => {
    expect(await sandbox.counts()).toEqual({ total: 0, byLicence: {}, bySurname: {} });
    expect(await used(live.key)).toBe(0);
    expect((await t.db.query('SELECT count(*)::int AS count FROM quota_usage WHERE user_id = $1', [live.userId])).rows[0].count).toBe(0);
    expect(await used(side.key)).toBeGreaterThan(0);
  });

  it('answers a live key from the register, in a cache of its own: a test answer is never served to it', async () => {
    const liveAnswer = await verify(t.baseUrl, live.key, '4000000000000001');
    expect([liveAnswer.status, (liveAnswer.body as { status: string }).status]).toEqual([404, 'NOT_FOUND']);
    expect((await sandbox.counts()).byLicence).toEqual({ '4000000000000001': 1 });
    const testAnswer = await verify(t.baseUrl, side.key, '4000000000000001');
    expect([testAnswer.status, found(testAnswer)]).toEqual([200, magic('4000000000000001', 'ACTIVE', 'Active')]);
  });
});

describe('test mode: failure magic numbers take from the rate limit like any request', () => {
  let t: TestApp;

  // A bucket of 3 that gains one token a second: a burst of 10 at once can be admitted 4 times at most.
  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' } });
  });
  afterAll(() => t.close());

  it("refuses a test key's failure-number verifies 429 RATE_LIMITED with Retry-After past its bucket", async () => {
    const live = await t.createKey({ quota: 10 });
    const side = await t.createKey({ userId: live.userId, test: true });
    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(t.baseUrl, side.key, '4000000000000503')));
    const refused = answers.filter((answer) => answer.status === 429);
    const admitted = answers.filter((answer) => answer.status !== 429);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    for (const answer of refused) {
      expect(answer.body).toEqual({ code: 'RATE_LIMITED', message: ERROR_CODES.RATE_LIMITED.message });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const answer of admitted) {
      expect([answer.status, answer.body]).toEqual([503, { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message }]);
    }
  });
});
