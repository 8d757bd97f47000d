import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { request, TestResponse, verify, verifyHolder } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const USER_MAX_LIVE_LOOKUPS = 100;
const REGISTER_MAX_PER_SECOND = 10;
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message };

const numbers = (series: number, count: number) => Array.from({ length: count }, (_, index) => unknownNumber(series, index));
const statuses = (responses: TestResponse[]) =>
  responses.reduce<Record<number, number>>((counts, response) => ({ ...counts, [response.status]: (counts[response.status] ?? 0) + 1 }), {});

/**
 * The one road to the register, as partners meet it: live lookups bounded per user and shared in turns, dates of
 * birth bounded per number, and re-checks claimed user by user. A real worker and the sandbox register, whose budget
 * is 10 lookups a second, as the real register's.
 */
describe('one road to the register: fair turns and bounds', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: {
        USER_MAX_LIVE_LOOKUPS: String(USER_MAX_LIVE_LOOKUPS),
        REGISTER_MAX_PER_SECOND: String(REGISTER_MAX_PER_SECOND),
        VERIFY_TIMEOUT_MS: '3000',
        // Longer than the slow register of the last test, so that its lookups are still waiting, not failed.
        REGISTER_REQUEST_TIMEOUT_MS: '60000',
        // A cycle far shorter than 2,000 re-checks take at the register's share: they are all overdue.
        WATCH_RECHECK_SECONDS: '60',
      },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());
  afterEach(() => sandbox.clearFaults());

  const charged = async (userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row: { licence_number: string }) => row.licence_number,
    );
  const liveWaiting = (userId: string) => t.redis.zcard(`${t.redisPrefix}:live:{u${userId}}`);

  it("answers another user's 3 new verifications within 5 s each while one user has 100 waiting", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const ofA = numbers(3211, 300);
    const burst = Promise.all(ofA.map((licenceNumber) => verify(t.baseUrl, a.key, licenceNumber)));
    await until(
      () => liveWaiting(a.userId),
      (waiting) => waiting >= USER_MAX_LIVE_LOOKUPS / 2,
    );

    const ofB = [SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.withConditions, SANDBOX_NUMBERS.nonFrontLine];
    const timed = await Promise.all(
      ofB.map(async (licenceNumber) => {
        // Within 5 s each, not behind a's backlog: the bound of the wait is the assertion.
        const answer = await until(
          () => verify(t.baseUrl, b.key, licenceNumber),
          (response) => response.status !== 202,
          5000,
        );
        return { status: answer.status };
      }),
    );
    expect(timed.map((answer) => answer.status)).toEqual([200, 200, 200]);
    // A's lookups were still waiting their turns behind B's: about 10 s of the register's budget.
    expect(await liveWaiting(a.userId)).toBeGreaterThan(0);

    const answers = await burst;
    expect(answers.filter((answer) => answer.status === 202).length + answers.filter((answer) => answer.status === 404).length).toBeGreaterThanOrEqual(
      USER_MAX_LIVE_LOOKUPS,
    );
    expect(answers.every((answer) => [202, 404, 503].includes(answer.status))).toBe(true);
    await until(
      () => liveWaiting(a.userId),
      (waiting) => waiting === 0,
      60_000,
    );
  }, 120_000);

  it('checks at most HOLDER_DATE_CHECKS_PER_NUMBER dates of birth of one number for a user in a month; a date already checked is answered again', async () => {
    const { key, userId } = await t.createKey();
    await sandbox.resetCounts();
    const claim = (dateOfBirth: string) => ({ licenceNumber: SANDBOX_NUMBERS.renewedNew, firstName: 'Olivia', surname: 'Hughes', dateOfBirth });
    const dates = ['1990-04-12', '1980-01-01', '1980-01-02', '1980-01-03', '1980-01-04'];

    const checks: unknown[] = [];
    for (const dateOfBirth of dates) checks.push((await verifyHolder(t.baseUrl, key, claim(dateOfBirth))).body);
    expect(checks.map((body) => (body as { holderCheck: { dateOfBirth: string } }).holderCheck.dateOfBirth)).toEqual([
      'CONFIRMED',
      'NOT_CONFIRMED',
      'NOT_CONFIRMED',
      'NOT_CHECKED',
      'NOT_CHECKED',
    ]);
    expect(await sandbox.searchesFor('HUGHES')).toBe(3);
    // The first date again: answered from its result, and still not a fourth date.
    const again = await verifyHolder(t.baseUrl, key, claim('1990-04-12'));
    expect((again.body as { holderCheck: unknown }).holderCheck).toEqual({ name: 'MATCH', dateOfBirth: 'CONFIRMED' });
    expect(await sandbox.searchesFor('HUGHES')).toBe(3);
    expect(await charged(userId)).toEqual([SANDBOX_NUMBERS.renewedNew]);
  }, 60_000);

  it('makes at most 3 date searches for a roster of 1,000 rows of one number with 1,000 dates of birth, for its first rows, and charges one unit', async () => {
    const { key, userId } = await t.createKey();
    await sandbox.resetCounts();
    const day = (index: number) => new Date(Date.UTC(1950, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
    const items = Array.from({ length: 1000 }, (_, index) => ({
      licenceNumber: SANDBOX_NUMBERS.replacedNew,
      firstName: 'Daniel',
      surname: 'Evans',
      dateOfBirth: day(index),
    }));
    const created = await request(t.baseUrl, 'POST', '/v1/batches', { headers: { 'x-api-key': key }, body: { items } });
    expect([200, 202]).toContain(created.status);
    const id = (created.body as { id: string }).id;
    const done = await until(
      () => request(t.baseUrl, 'GET', `/v1/batches/${id}?limit=1000`, { headers: { 'x-api-key': key } }),
      (response) => (response.body as { status: string }).status === 'COMPLETED',
      60_000,
    );
    const rows = (done.body as { items: { holderCheck: { dateOfBirth: string } }[] }).items;
    expect(rows.slice(0, 3).map((row) => row.holderCheck.dateOfBirth)).toEqual(['NOT_CONFIRMED', 'NOT_CONFIRMED', 'NOT_CONFIRMED']);
    expect(rows.slice(3).filter((row) => row.holderCheck.dateOfBirth !== 'NOT_CHECKED')).toEqual([]);
    expect(await sandbox.searchesFor('EVANS')).toBe(3);
    expect(await charged(userId)).toEqual([SANDBOX_NUMBERS.replacedNew]);
  }, 120_000);

  it("re-checks a user's 10 newly watched numbers within 10 s while another user's 2,000 are due", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    for (const series of [3241, 3242]) {
      const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
        headers: { 'x-api-key': a.key },
        body: { items: numbers(series, 1000).map((licenceNumber) => ({ licenceNumber })) },
      });
      expect(added.body).toEqual({ added: 1000, updated: 0 });
    }
    // A's numbers became due first: wait until their re-checks are under way.
    await until(
      () => sandbox.counts(),
      (counts) => numbers(3241, 1000).some((number) => (counts.byLicence[number] ?? 0) > 0),
      30_000,
    );

    const ofB = numbers(3243, 10);
    const watchedAt = Date.now();
    const added = await request(t.baseUrl, 'POST', '/v1/watchlist:batchAdd', {
      headers: { 'x-api-key': b.key },
      body: { items: ofB.map((licenceNumber) => ({ licenceNumber })) },
    });
    expect(added.body).toEqual({ added: 10, updated: 0 });
    const times = await until(
      () => sandbox.times(),
      ({ byLicence }) => ofB.every((number) => (byLicence[number] ?? []).some((at) => at >= watchedAt)),
      30_000,
    );
    const firstRequests = ofB.map((number) => times.byLicence[number].find((at) => at >= watchedAt)! - watchedAt);
    for (const ms of firstRequests) expect(ms).toBeLessThan(10_000);
    // ...while A's 2,000 were still far from all checked.
    const { byLicence } = await sandbox.counts();
    expect([...numbers(3241, 1000), ...numbers(3242, 1000)].filter((number) => (byLicence[number] ?? 0) > 0).length).toBeLessThan(2000);
    await t.db.query('DELETE FROM watch_entries WHERE user_id = ANY($1)', [[a.userId, b.userId]]);
  }, 120_000);

  it("stops a disabled user's running batch within 10 s: rows not looked up end as ERROR, refunded; retry after enabling looks them up", async () => {
    const { key, userId } = await t.createKey();
    const roster = numbers(3251, 300);
    const created = await request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': key },
      body: { items: roster.map((licenceNumber) => ({ licenceNumber })) },
    });
    expect(created.status).toBe(202);
    const id = (created.body as { id: string }).id;
    const settled = async () =>
      (await t.db.query(`SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND status <> 'PENDING'`, [id])).rows[0].n as number;
    await until(settled, (count) => count >= 10, 30_000);

    const disabled = await runAdminCli(t.env, 'disable-user', userId);
    expect(disabled.status).toBe(0);
    const disabledAt = Date.now();
    await until(
      async () => (await t.db.query('SELECT status FROM batches WHERE id = $1', [id])).rows[0].status as string,
      (status) => status === 'COMPLETED',
      10_000,
    );
    expect(Date.now() - disabledAt).toBeLessThan(10_000);
    const items = (
      await t.db.query<{ licence_number: string; status: string; error_code: string | null }>(
        'SELECT licence_number, status, error_code FROM batch_items WHERE batch_id = $1 ORDER BY index',
        [id],
      )
    ).rows;
    const failed = items.filter((item) => item.status === 'ERROR');
    const answered = items.filter((item) => item.status === 'NOT_FOUND');
    expect(failed.length + answered.length).toBe(300);
    expect(failed.length).toBeGreaterThan(100);
    expect(new Set(failed.map((item) => item.error_code))).toEqual(new Set(['SERVICE_UNAVAILABLE']));
    // Charged for what was answered, refunded for the rest. A row tied to its job after a stop run read the jobs is
    // ended by that run and refunded by the next (every 5 s), which may come after the batch completed.
    const answeredNumbers = answered.map((item) => item.licence_number).sort();
    await until(
      () => charged(userId),
      (numbers) => numbers.join() === answeredNumbers.join(),
      15_000,
    ).catch(() => undefined); // the assertion below shows the difference
    expect(await charged(userId)).toEqual(answeredNumbers);

    // The withdrawn lookups never reach the register (a few may have been running already).
    await sandbox.resetCounts();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const { byLicence } = await sandbox.counts();
    expect(failed.filter((item) => (byLicence[item.licence_number] ?? 0) > 0).length).toBeLessThan(20);

    expect((await runAdminCli(t.env, 'enable-user', userId)).status).toBe(0);
    const retried = await request(t.baseUrl, 'POST', `/v1/batches/${id}/retry`, { headers: { 'x-api-key': key } });
    expect([200, 202]).toContain(retried.status);
    const done = await until(
      () => request(t.baseUrl, 'GET', `/v1/batches/${id}?limit=1`, { headers: { 'x-api-key': key } }),
      (response) => (response.body as { status: string }).status === 'COMPLETED',
      60_000,
    );
    expect((done.body as { counts: unknown }).counts).toEqual({ FOUND: 0, NOT_FOUND: 300, TOO_MANY_RESULTS: 0, ERROR: 0, PENDING: 0 });
    expect(await charged(userId)).toEqual([...roster].sort());
  }, 120_000);

  it("admits a user's live lookups up to USER_MAX_LIVE_LOOKUPS until the register answers them; the 101st is 503, uncharged, and another user is untouched", async () => {
    // Every register request takes 50 s: nothing that is admitted here is answered during the test (the last one of
    // this file, so that no later test waits behind these lookups).
    await sandbox.setFault({ fault: 'none', latencyMs: 50_000 });
    const a = await t.createKey();
    const b = await t.createKey();
    const ofA = numbers(3201, 300);

    const answers = await Promise.all(ofA.map((licenceNumber) => verify(t.baseUrl, a.key, licenceNumber)));
    expect(statuses(answers)).toEqual({ 202: USER_MAX_LIVE_LOOKUPS, 503: 300 - USER_MAX_LIVE_LOOKUPS });
    expect(answers.filter((answer) => answer.status === 503).map((answer) => answer.body)).toEqual(Array(200).fill(UNAVAILABLE));
    const admitted = ofA.filter((_, index) => answers[index].status === 202);
    expect(await charged(a.userId)).toEqual(admitted.sort());
    // The places are held after the 202s, until the register answers.
    expect(await liveWaiting(a.userId)).toBe(USER_MAX_LIVE_LOOKUPS);

    const oneMore = await verify(t.baseUrl, a.key, unknownNumber(3202, 0));
    expect([oneMore.status, oneMore.body]).toEqual([503, UNAVAILABLE]);
    expect(await charged(a.userId)).toEqual(admitted.sort());

    const ofB = await verify(t.baseUrl, b.key, unknownNumber(3203, 0));
    expect(ofB.status).toBe(202);
    expect(await charged(b.userId)).toEqual([unknownNumber(3203, 0)]);
  }, 120_000);
});
