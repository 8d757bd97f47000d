import { ApiKeysService } from '../../src/auth/api-keys.service';
import type { LookupUser } from '../../src/lookups/lookup-request';
import { numberSubject } from '../../src/lookups/lookup-subject';
import { LookupService } from '../../src/lookups/lookup.service';
import { QuotaService } from '../../src/quota/quota.service';
import { AuthModule } from '../../src/auth/auth.module';
import { LookupsWorkerModule } from '../../src/lookups/lookups-worker.module';
import { IntegrationModule, startIntegrationModule } from '../support/integration-module';
import { unknownNumber, until } from '../support/until';

/**
 * The lookup pipeline's rules, through LookupService as its callers use it, with the worker's lookups running in the
 * same process (LookupsWorkerModule): real PostgreSQL, Redis and sandbox register, no HTTP.
 */
describe('the lookup pipeline (LookupService and its worker, in one testing module)', () => {
  let m: IntegrationModule;
  let lookups: LookupService;
  let series = 4100;

  beforeAll(async () => {
    // One attempt: a failed lookup fails at once instead of after its retries' backoff.
    // AuthModule for its keys service, which makes the users whose lookups these are.
    m = await startIntegrationModule([LookupsWorkerModule, AuthModule], { LOOKUP_ATTEMPTS: '1' });
    lookups = m.moduleRef.get(LookupService);
  });
  afterAll(() => m.close());
  afterEach(() => m.sandbox.clearFaults());

  const newNumber = () => unknownNumber((series += 1), 0);
  const liveUser = async (): Promise<LookupUser> => {
    const { userId } = await m.moduleRef.get(ApiKeysService).createKey({ name: 'integration', quota: null });
    return { userId, monthlyQuota: null, mode: 'live' };
  };
  const testUser = async (): Promise<LookupUser> => {
    const { userId } = await m.moduleRef.get(ApiKeysService).createKey({ name: 'integration', quota: null, testModeQuota: 100 });
    return { userId, monthlyQuota: 100, mode: 'test' };
  };
  const verify = (user: LookupUser, licenceNumber: string) =>
    lookups.lookup({
      kind: 'live',
      subject: numberSubject(licenceNumber),
      user,
      deadline: Date.now() + 10_000,
      requestId: 'integration',
      cache: 'use',
      payment: 'charge',
    });
  const ledger = async (userId: string): Promise<string[]> =>
    (await m.db.query<{ licence_number: string }>('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row) => row.licence_number,
    );
  /** The user's charges once none is left to refund (a failed lookup's refund follows its job's failure), or as they stand after 5 s. */
  const chargesOnceSettled = (userId: string): Promise<string[]> =>
    until(
      () => ledger(userId),
      (rows) => rows.length === 0,
      5_000,
    ).catch(() => ledger(userId));
  /** The lookup jobs in Redis, of both queues (a job's key ends in its id). */
  const jobIds = async (): Promise<string[]> =>
    (await m.redis.keys(`${m.redisPrefix}:bull:register-lookup*`)).filter((key) => /:(test-)?[0-9a-f-]{36}$/.test(key)).sort();

  it('asks the register once, then serves the cached answer without a job, a register request or a second charge', async () => {
    const user = await liveUser();
    const licenceNumber = newNumber();
    const first = await verify(user, licenceNumber);
    expect(first).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
    expect(first.newCharge).toMatchObject({ userId: user.userId, licenceNumber, isNew: true });
    const jobs = await jobIds();
    expect(jobs).toHaveLength(1);

    const again = await verify(user, licenceNumber);
    expect(again).toMatchObject({ state: 'answered', source: 'cache', result: { status: 'NOT_FOUND' }, newCharge: null });
    expect(await jobIds()).toEqual(jobs);
    expect(await m.sandbox.requestsFor(licenceNumber)).toBe(1);
    expect(await ledger(user.userId)).toEqual([licenceNumber]);
  });

  it('refunds the charge a lookup made when the register fails', async () => {
    const user = await liveUser();
    const licenceNumber = newNumber();
    await m.sandbox.setFault({ fault: 'status-503' });
    await expect(verify(user, licenceNumber)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // The register was asked (the failure is its answer, not a refusal before the job), and the charge is gone.
    expect(await m.sandbox.requestsFor(licenceNumber)).toBe(1);
    expect(await chargesOnceSettled(user.userId)).toEqual([]);
  });

  it("keeps a roster row's charge when its caller fails after the job was queued: the row gets the job's answer, paid once", async () => {
    const user = await liveUser();
    const licenceNumber = newNumber();
    const charge = await m.moduleRef.get(QuotaService).chargeOnce(user, licenceNumber);
    let queuedJob: string | undefined;
    const rowWrite = lookups.lookup({
      kind: 'batch',
      subject: numberSubject(licenceNumber),
      user,
      cache: 'use',
      payer: charge,
      onQueued: (jobId) => {
        queuedJob = jobId;
        return Promise.reject(new Error('the row write timed out'));
      },
    });
    await expect(rowWrite).rejects.toThrow('the row write timed out');
    expect(await ledger(user.userId)).toEqual([licenceNumber]);
    await until(
      () => lookups.standing(queuedJob!),
      (standing) => standing.state === 'completed',
      10_000,
    );
    // Settled (its payers forgotten), the job leaves the charge standing: the register was asked once.
    await until(
      () => m.redis.exists(`${m.redisPrefix}:payers:${queuedJob}`),
      (exists) => exists === 0,
      5_000,
    );
    expect(await ledger(user.userId)).toEqual([licenceNumber]);
    expect(await m.sandbox.requestsFor(licenceNumber)).toBe(1);
  });

  it('refunds the charge of a live lookup whose caller fails after the job was queued: its client had no answer', async () => {
    const user = await liveUser();
    const licenceNumber = newNumber();
    const answer = lookups.lookup({
      kind: 'live',
      subject: numberSubject(licenceNumber),
      user,
      deadline: Date.now() + 10_000,
      requestId: 'integration',
      cache: 'use',
      payment: 'charge',
      onQueued: () => Promise.reject(new Error('the idempotency record write timed out')),
    });
    await expect(answer).rejects.toThrow('the idempotency record write timed out');
    expect(await ledger(user.userId)).toEqual([]);
  });

  it("answers a test side from its own test world, which never reaches the live register, nor serves a live user's cache", async () => {
    const licenceNumber = newNumber();
    const before = (await m.sandbox.counts()).total;
    const tested = await verify(await testUser(), licenceNumber);
    expect(tested).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
    expect(await jobIds()).toEqual(expect.arrayContaining([expect.stringMatching(/:register-lookup-test:test-[0-9a-f-]{36}$/)]));
    expect((await m.sandbox.counts()).total).toBe(before);

    // The live world asks its own register: the test answer was kept apart.
    const live = await verify(await liveUser(), licenceNumber);
    expect(live).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
    expect(await m.sandbox.requestsFor(licenceNumber)).toBe(1);
  });

  it("answers a test side's failure number as its test register says, uncharged, without asking the live register", async () => {
    const user = await testUser();
    const before = (await m.sandbox.counts()).total;
    await expect(verify(user, '4000000000000503')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await chargesOnceSettled(user.userId)).toEqual([]);
    expect((await m.sandbox.counts()).total).toBe(before);
  });
});
