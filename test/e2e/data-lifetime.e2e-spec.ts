import { SANDBOX_NUMBERS } from '@lvs/test-register';
import type { TestingModule } from '@nestjs/testing';
import { request, TestResponse } from '../support/http';
import { startInProcessWorker } from '../support/in-process-worker';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const DAY_MS = 24 * 3600 * 1000;
const daysAfter = (instant: string, days: number) => new Date(Date.parse(instant) + days * DAY_MS).toISOString();

interface WatchEntry {
  licenceNumber: string;
  state: string;
  status: string | null;
  licence: { status: string } | null;
}

// The worker runs in this process so that it shares the test's clock: retention is measured on it.
describe('lifetime of data, on the test clock, checked in the database', () => {
  let t: TestApp;
  let worker: TestingModule;

  beforeAll(async () => {
    t = await startTestApp({ env: { WATCH_RECHECK_SECONDS: '1' } });
    worker = await startInProcessWorker(t.clock);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });
  afterEach(() => t.clock.set(null));

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });
  const stateOf = async (licenceNumber: string) =>
    (await t.db.query('SELECT result, unwatched_since FROM licence_states WHERE licence_number = $1', [licenceNumber])).rows[0] as
      { result: { status: string; licence?: { status: string } } | null; unwatched_since: Date | null } | undefined;

  let sentinels = 0;
  /**
   * The positive signal that a retention tick ran on the test clock at `instant` (already travelled to): an event
   * and an unwatched number's state, each 31 days old then and far younger on any earlier clock of these tests, are
   * deleted by the same statements that must keep what a test expects kept.
   */
  async function retentionRanAt(instant: string): Promise<void> {
    const { userId } = await t.createKey();
    const sentinel = unknownNumber(42, sentinels++);
    const old = daysAfter(instant, -31);
    await t.db.query(`INSERT INTO events (user_id, type, data, created_at) VALUES ($1, 'watch.paused', '{}', $2)`, [userId, old]);
    await t.db.query('INSERT INTO licence_states (world, licence_number, next_check_at, unwatched_since) VALUES (licence_world($3), $1, $2, $2)', [
      sentinel,
      old,
      userId,
    ]);
    await until(
      async () => ({
        events: (await t.db.query('SELECT count(*)::int AS n FROM events WHERE user_id = $1', [userId])).rows[0].n as number,
        state: await stateOf(sentinel),
      }),
      (left) => left.events === 0 && left.state === undefined,
      10_000,
    );
  }

  // First, while nothing at all is watched.
  it('deletes events after 30 days though no number is watched', async () => {
    const { userId } = await t.createKey();
    const start = '2027-01-05T12:00:00Z';
    t.clock.travelTo(start);
    await t.db.query(`INSERT INTO events (user_id, type, data, created_at) VALUES ($1, 'watch.paused', '{}', $2), ($1, 'watch.resumed', '{}', $3)`, [
      userId,
      start,
      daysAfter(start, 2),
    ]);
    const events = async () =>
      (await t.db.query('SELECT type FROM events WHERE user_id = $1 ORDER BY seq', [userId])).rows.map((row) => row.type as string);
    expect((await t.db.query('SELECT count(*)::int AS n FROM watch_entries')).rows[0].n).toBe(0);

    t.clock.travelTo(daysAfter(start, 29));
    await retentionRanAt(daysAfter(start, 29));
    expect(await events()).toEqual(['watch.paused', 'watch.resumed']);
    t.clock.travelTo(daysAfter(start, 31));
    await until(events, (types) => types.length === 1, 10_000);
    expect(await events()).toEqual(['watch.resumed']);
  });

  it("deletes a number's state 30 days after its last watcher left, not after the first one", async () => {
    const [first, second] = [await t.createKey(), await t.createKey()];
    const watched = unknownNumber(41, 0);
    const start = '2027-02-01T12:00:00Z';
    t.clock.travelTo(start);
    for (const { key } of [first, second]) expect((await call(key, 'PUT', `/v1/watchlist/${watched}`)).status).toBe(201);
    await until(
      () => stateOf(watched),
      (state) => state?.result?.status === 'NOT_FOUND',
      10_000,
    );

    expect((await call(first.key, 'DELETE', `/v1/watchlist/${watched}`)).status).toBe(204);
    expect((await stateOf(watched))?.unwatched_since).toBeNull();
    const lastLeft = daysAfter(start, 10);
    t.clock.travelTo(lastLeft);
    expect((await call(second.key, 'DELETE', `/v1/watchlist/${watched}`)).status).toBe(204);
    expect(Math.abs((await stateOf(watched))!.unwatched_since!.getTime() - Date.parse(lastLeft))).toBeLessThan(5000);

    // 31 days after the first watcher left, 21 after the last: kept.
    t.clock.travelTo(daysAfter(lastLeft, 21));
    await retentionRanAt(daysAfter(lastLeft, 21));
    expect(await stateOf(watched)).toBeDefined();
    t.clock.travelTo(daysAfter(lastLeft, 31));
    await until(
      () => stateOf(watched),
      (state) => state === undefined,
      10_000,
    );
  });

  it('keeps the state of a number watched again before its retention ran out', async () => {
    const { key } = await t.createKey();
    const watched = unknownNumber(41, 1);
    const start = '2027-04-01T12:00:00Z';
    t.clock.travelTo(start);
    expect((await call(key, 'PUT', `/v1/watchlist/${watched}`)).status).toBe(201);
    expect((await call(key, 'DELETE', `/v1/watchlist/${watched}`)).status).toBe(204);
    t.clock.travelTo(daysAfter(start, 20));
    expect((await call(key, 'PUT', `/v1/watchlist/${watched}`)).status).toBe(201);
    expect((await stateOf(watched))?.unwatched_since).toBeNull();
    t.clock.travelTo(daysAfter(start, 40));
    await retentionRanAt(daysAfter(start, 40));
    expect(await stateOf(watched)).toBeDefined();
  });

  it('shows a paused entry as of its pause, while re-checks paid by another watcher find newer results', async () => {
    const sandbox = new SandboxAdmin(t.sandbox.url);
    const licenceNumber = SANDBOX_NUMBERS.active;
    const paused = await t.createKey({ quota: 1 });
    const other = await t.createKey();
    t.clock.travelTo('2027-06-20T12:00:00Z');
    for (const { key } of [paused, other]) expect((await call(key, 'PUT', `/v1/watchlist/${licenceNumber}`)).status).toBe(201);
    await until(
      () => stateOf(licenceNumber),
      (state) => state?.result?.licence?.status === 'Active',
      10_000,
    );

    // July, and no room: the first re-check of the month pauses the entry.
    await t.db.query('UPDATE users SET monthly_quota = 0 WHERE id = $1', [paused.userId]);
    t.clock.travelTo('2027-07-02T12:00:00Z');
    const entryState = async () =>
      (await t.db.query('SELECT state, paused_result FROM watch_entries WHERE user_id = $1', [paused.userId])).rows[0] as {
        state: string;
        paused_result: { licence: { status: string } } | null;
      };
    await until(entryState, (entry) => entry.state === 'PAUSED', 10_000);

    // The register changes; the other watcher's re-checks record it.
    await sandbox.changeLicence(licenceNumber, { status: 'Revoked', statusReason: 'Licence revoked' });
    await until(
      () => stateOf(licenceNumber),
      (state) => state?.result?.licence?.status === 'Revoked',
      10_000,
    );

    expect((await entryState()).paused_result?.licence.status).toBe('Active');
    const shown = async (key: string) => ((await call(key, 'GET', '/v1/watchlist')).body as { items: WatchEntry[] }).items[0];
    expect(await shown(paused.key)).toMatchObject({ licenceNumber, state: 'PAUSED', status: 'FOUND', licence: { status: 'Active' } });
    expect(await shown(other.key)).toMatchObject({ licenceNumber, state: 'ACTIVE', status: 'FOUND', licence: { status: 'Revoked' } });
    const filtered = (await call(paused.key, 'GET', '/v1/watchlist?status=REVOKED')).body as { items: WatchEntry[] };
    expect(filtered.items).toEqual([]);
  });

  it('keeps the per-number ledger LEDGER_RETENTION_MONTHS (25), the current month included, and the monthly totals for ever', async () => {
    const { userId, key } = await t.createKey();
    // 2029-03 is the current period: 2027-03 is the oldest of the 25 kept, 2027-02 the newest deleted.
    t.clock.travelTo('2029-03-15T12:00:00Z');
    const periods = ['2027-01', '2027-02', '2027-03', '2028-06', '2029-03'];
    for (const period of periods) {
      await t.db.query(`INSERT INTO quota_charges (user_id, period, licence_number) VALUES ($1, $2, '1000000000000001'), ($1, $2, '1000000000000002')`, [
        userId,
        period,
      ]);
      await t.db.query('INSERT INTO quota_usage (user_id, period, used) VALUES ($1, $2, 2)', [userId, period]);
    }
    const ledger = async () =>
      (
        await t.db.query<{ period: string; n: number }>(
          'SELECT period, count(*)::int AS n FROM quota_charges WHERE user_id = $1 GROUP BY period ORDER BY period',
          [userId],
        )
      ).rows;
    await until(ledger, (rows) => rows.length === 3, 10_000);
    expect(await ledger()).toEqual([
      { period: '2027-03', n: 2 },
      { period: '2028-06', n: 2 },
      { period: '2029-03', n: 2 },
    ]);
    const totals = await t.db.query('SELECT period, used FROM quota_usage WHERE user_id = $1 ORDER BY period', [userId]);
    expect(totals.rows).toEqual(periods.map((period) => ({ period, used: 2 })));
    // The history (24 months at most) reads the totals, untouched.
    const history = await call(key, 'GET', '/v1/quota/history?months=24');
    expect((history.body as { periods: { period: string; used: number }[] }).periods.filter((entry) => entry.used > 0)).toEqual([
      { period: '2028-06', used: 2, quota: null },
      { period: '2029-03', used: 2, quota: null },
    ]);
  });
});
