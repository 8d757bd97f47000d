import { BatchRepository } from '../../src/batches/batch.repository';
import { BatchSettlement } from '../../src/batches/batch-settlement';
import { itemResult } from '../../src/batches/batch-view';
import { LookupPayers } from '../../src/lookups/lookup-payers';
import { ResultCache } from '../../src/lookups/result-cache';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber } from '../support/until';

const NOT_FOUND = { status: 'NOT_FOUND' as const, licence: null, checkedAt: '2026-11-27T07:00:00.000Z' };

/**
 * Stopping a disabled user's running batch while its lookups are still being queued, and while another stop runs
 * (another API process, or an overlapping run of this one): each interleaving is forced by running one step
 * between two steps of the other. No worker runs, so every queued lookup stays pending until the test answers it;
 * the app's own stop timer is off, so that only the test stops batches.
 */
describe('stopping a disabled user’s batch: charges follow the rows, whatever runs between', () => {
  let t: TestApp;
  let settlement: BatchSettlement;
  let repository: BatchRepository;

  beforeAll(async () => {
    t = await startTestApp({ env: { VERIFY_TIMEOUT_MS: '500' } });
    settlement = t.app.get(BatchSettlement);
    repository = t.app.get(BatchRepository);
    settlement.onApplicationShutdown();
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t.close());

  const charged = async (userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row: { licence_number: string }) => row.licence_number,
    );
  const rows = async (batchId: string) =>
    (
      await t.db.query<{ licence_number: string; status: string; error_code: string | null }>(
        'SELECT licence_number, status, error_code FROM batch_items WHERE batch_id = $1 ORDER BY index',
        [batchId],
      )
    ).rows;
  const batchStatus = async (batchId: string): Promise<string> =>
    (await t.db.query('SELECT status FROM batches WHERE id = $1', [batchId])).rows[0].status as string;
  /** Sends the roster; answers the batch's id once the answer's status is `status` (200: completed, 202: running). */
  const createBatch = async (key: string, roster: string[], status: 200 | 202): Promise<string> => {
    const created = await request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': key },
      body: { items: roster.map((licenceNumber) => ({ licenceNumber })) },
    });
    expect(created.status).toBe(status);
    return (created.body as { id: string }).id;
  };
  /** The batch completed with every row ended as SERVICE_UNAVAILABLE, and none of the user's charges kept. */
  const expectStopped = async (batchId: string, roster: string[], userId: string) => {
    expect(await batchStatus(batchId)).toBe('COMPLETED');
    expect(await rows(batchId)).toEqual(
      roster.map((licenceNumber) => ({ licence_number: licenceNumber, status: 'ERROR', error_code: 'SERVICE_UNAVAILABLE' })),
    );
    expect(await charged(userId)).toEqual([]);
  };
  const disable = async (userId: string) => expect((await runAdminCli(t.env, 'disable-user', userId)).status).toBe(0);
  /** Runs `between` once: after the first withdrawal of a job's charges, before the stop that made it goes on. */
  const afterWithdrawal = (between: () => Promise<void>) => {
    const payers = t.app.get(LookupPayers);
    const withdraw = payers.withdraw.bind(payers);
    jest.spyOn(payers, 'withdraw').mockImplementationOnce(async (jobId, userId) => {
      const taken = await withdraw(jobId, userId);
      await between();
      return taken;
    });
  };

  it('refunds the rows a stop ended while their lookups were being queued, answered from the cache, or queued after it', async () => {
    const { key, userId } = await t.createKey();
    // More numbers than the dispatch looks up at once: the last ones are looked up after the stop.
    const roster = Array.from({ length: 20 }, (_, index) => unknownNumber(3601, index));
    const cachedNumber = roster[19];
    await t.app.get(ResultCache).put(cachedNumber, NOT_FOUND);
    // The first lookup queued (charged, its payer recorded, its row not yet tied to the job) waits while the user is
    // disabled and the stop runs; the lookups queued at the same time wait on it.
    let stopped: Promise<void> | undefined;
    const original = repository.attachJob.bind(repository);
    jest.spyOn(repository, 'attachJob').mockImplementation(async (...args) => {
      stopped ??= disable(userId).then(() => settlement.stopDisabled());
      await stopped;
      return original(...args);
    });

    const id = await createBatch(key, roster, 200);

    await expectStopped(id, roster, userId);
  }, 60_000);

  it('leaves a row tied to its job after the stop read the jobs to the next stop, which refunds its charge', async () => {
    const { key, userId } = await t.createKey();
    const roster = [unknownNumber(3604, 0)];
    // The lookup is queued and charged; while it waits to tie its row to the job, the user is disabled and a stop
    // reads the batch's jobs (none yet). The row is tied to the job before that stop ends the rows without one.
    let stopping: Promise<void> | undefined;
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let attached!: () => void;
    const tied = new Promise<void>((resolve) => (attached = resolve));
    const attach = repository.attachJob.bind(repository);
    jest.spyOn(repository, 'attachJob').mockImplementationOnce(async (...args) => {
      stopping = disable(userId).then(() => settlement.stopDisabled());
      await gate;
      const answer = await attach(...args);
      attached();
      return answer;
    });
    const pendingJobs = repository.pendingJobs.bind(repository);
    jest.spyOn(repository, 'pendingJobs').mockImplementationOnce(async (batchId) => {
      const jobIds = await pendingJobs(batchId);
      openGate();
      await tied;
      return jobIds;
    });

    const id = await createBatch(key, roster, 202);
    await stopping;

    expect(await rows(id)).toEqual([{ licence_number: roster[0], status: 'PENDING', error_code: null }]);
    await settlement.stopDisabled();
    await expectStopped(id, roster, userId);
  }, 60_000);

  it('refunds a job’s charges when another stop ends its rows between this stop’s withdrawal of them and its own end of the rows', async () => {
    const { key, userId } = await t.createKey();
    const roster = Array.from({ length: 3 }, (_, index) => unknownNumber(3602, index));
    const id = await createBatch(key, roster, 202);
    expect(await charged(userId)).toEqual([...roster].sort());
    await disable(userId);

    afterWithdrawal(() => settlement.stopDisabled());
    await settlement.stopDisabled();

    await expectStopped(id, roster, userId);
  }, 60_000);

  it('keeps the charge of a row its lookup answered between the stop’s withdrawal of the charge and its end of the rows', async () => {
    const { key, userId } = await t.createKey();
    const roster = [unknownNumber(3603, 0)];
    const id = await createBatch(key, roster, 202);
    const [jobId] = await repository.pendingJobs(id);
    await disable(userId);

    // As BatchSettlement writes a finished lookup's answer when it hears of it.
    afterWithdrawal(async () => {
      expect(await repository.settleJob(jobId, itemResult({ state: 'completed', result: NOT_FOUND }))).toEqual([id]);
    });
    await settlement.stopDisabled();

    expect(await batchStatus(id)).toBe('COMPLETED');
    expect(await rows(id)).toEqual([{ licence_number: roster[0], status: 'NOT_FOUND', error_code: null }]);
    expect(await charged(userId)).toEqual(roster);
  }, 60_000);
});
