import { ApiProcess } from '../support/api-process';
import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

/**
 * Every API process hears every finished lookup, and the first to settle a roster's last rows completes it; the
 * request waiting for the roster may be in another process, which then finds nothing left to settle.
 */
describe('a roster completed by another API process', () => {
  let t: TestApp;
  let api: ApiProcess;

  beforeAll(async () => {
    // Four new numbers at two lookups a second: the roster runs for more than a second, while its process is frozen.
    t = await startTestApp({ withWorker: true, env: { REGISTER_MAX_PER_SECOND: '2' } });
    // The freeze stands for a process that is slow, not for a Redis or a database that is: a call it had made when it
    // froze gets its answer (on thawing, an expired deadline would fire before the waiting answer is read).
    api = await ApiProcess.start({
      ...t.env,
      VERIFY_TIMEOUT_MS: '60000',
      DEPENDENCY_TIMEOUT_MS: '60000',
      DATABASE_STATEMENT_TIMEOUT_MS: '60000',
      DATABASE_CHARGE_TIMEOUT_MS: '60000',
    });
  });
  afterAll(async () => {
    api?.signal('SIGCONT');
    await api?.stop();
    await t?.close();
  });

  it('ends the request waiting for it in this one at once, not at its deadline', async () => {
    const { key, userId } = await t.createKey();
    const posting = request(api.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': key },
      body: { items: [0, 1, 2, 3].map((index) => ({ licenceNumber: unknownNumber(4800, index) })) },
    });
    // Frozen once every row waits on its queued lookup: the lookups then finish while only the test's own API
    // process (in this test's process) hears them, and it settles and completes the roster.
    const queued = await until(
      async () =>
        (
          await t.db.query<{ id: string; queued: number }>(
            `SELECT b.id, count(i.job_id)::int AS queued FROM batches b JOIN batch_items i ON i.batch_id = b.id WHERE b.user_id = $1 GROUP BY b.id`,
            [userId],
          )
        ).rows[0],
      (row) => row?.queued === 4,
      30_000,
    );
    api.signal('SIGSTOP');
    await until(
      async () => (await t.db.query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [queued.id])).rows[0].status,
      (status) => status === 'COMPLETED',
      30_000,
    );
    const thawed = Date.now();
    api.signal('SIGCONT');
    const answer = await posting;
    const waited = Date.now() - thawed;

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: queued.id, status: 'COMPLETED', total: 4, counts: { NOT_FOUND: 4, PENDING: 0 } });
    // Its deadline was 60 s after the request; it answers as soon as it runs again and hears of the completion.
    expect(waited).toBeLessThan(5_000);
  }, 100_000);
});
