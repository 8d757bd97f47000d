import { NameSearchSubjects } from '../../src/holders/name-search-subjects';
import { ApiError } from '../../src/errors/api-error';
import { LookupJobResult, lookupFailureCode } from '../../src/lookups/lookup-outcome';
import type { LookupRequest, LookupUser } from '../../src/lookups/lookup-request';
import { LookupSubject, numberSubject } from '../../src/lookups/lookup-subject';
import { LookupAnswer, LookupService } from '../../src/lookups/lookup.service';
import { Charge, QuotaService } from '../../src/quota/quota.service';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const SUBJECTS = ['licence number', 'name search'] as const;
type SubjectKind = (typeof SUBJECTS)[number];

/**
 * Each kind of lookup as its callers make it: a live one charges its unit itself (verify) or brings an earlier charge
 * (verify-holder's date search); a roster's row brings its row's charge; a re-check is never charged.
 */
const PAYMENTS = [
  { kind: 'live', pays: 'its own charge' },
  { kind: 'live', pays: 'an earlier charge' },
  { kind: 'batch', pays: 'an earlier charge' },
  { kind: 'recheck', pays: 'nothing' },
] as const;
type Payment = (typeof PAYMENTS)[number];

/** Every kind of lookup, for every kind of subject: the rules of the one road are stated once and run for each. */
const CASES = PAYMENTS.flatMap((payment) => SUBJECTS.map((subjectKind) => ({ ...payment, subjectKind })));

/**
 * LookupService, the one road to the register, against the real worker, Redis, PostgreSQL and sandbox register.
 * Each rule is written once and run for each kind of lookup (live, batch, re-check), each way it is paid, and each
 * kind of subject.
 */
describe('LookupService: the rules of the one road', () => {
  let series = 3300;
  const subjectOf = (subjectKind: SubjectKind): LookupSubject => {
    series += 1;
    return subjectKind === 'licence number'
      ? numberSubject(unknownNumber(series, 0))
      : t.app.get(NameSearchSubjects).subject({ surname: `NOBODY${series}` });
  };
  const ledger = async (userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row: { licence_number: string }) => row.licence_number,
    );
  const jobCount = async (): Promise<number> => {
    const keys = await t.redis.keys(`${t.redisPrefix}:bull:register-lookup:*`);
    return keys.filter((key) => /:[0-9a-f-]{36}$/.test(key)).length;
  };
  /** The earlier charge the case brings (of `unit`), made as its caller makes it; null when it brings none. */
  const earlierCharge = async ({ pays }: Payment, user: LookupUser, unit: string): Promise<Charge | null> =>
    pays === 'an earlier charge' ? t.app.get(QuotaService).chargeOnce(user, unit) : null;
  const requestOf = ({ kind }: Payment, subject: LookupSubject, user: LookupUser, payer: Charge | null): LookupRequest => {
    switch (kind) {
      case 'live':
        return { kind, subject, user, deadline: Date.now() + 20_000, requestId: 'lookup-service-e2e', cache: 'use', payment: payer ?? 'charge' };
      case 'batch':
        return { kind, subject, user, cache: 'use', payer, onQueued: () => Promise.resolve() };
      case 'recheck':
        return { kind, subject, user, deadline: Date.now() + 20_000, cache: 'use' };
    }
  };
  /** The lookup's answer; a roster's row answers pending at once, and its answer is its job's, read as its settlement does. */
  const answerOf = async (request: LookupRequest): Promise<LookupAnswer<LookupJobResult>> => {
    const lookups = t.app.get(LookupService);
    const answer = await lookups.lookup<LookupJobResult>(request);
    if (answer.state === 'answered' || request.kind !== 'batch') return answer;
    const standing = await until(
      () => lookups.standing<LookupJobResult>(answer.jobId),
      (read) => read.state === 'completed' || read.state === 'failed',
    );
    if (standing.state === 'completed') return { state: 'answered', result: standing.result, source: 'register', newCharge: answer.newCharge };
    if (standing.state !== 'failed') throw new Error(`the job is ${standing.state}`);
    throw new ApiError(lookupFailureCode(standing.reason));
  };

  // One app per file: a process reads its settings once.
  let t: TestApp;
  let sandbox: SandboxAdmin;
  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { LOOKUP_ATTEMPTS: '1', REGISTER_BREAKER_FAILURES: '1000' } });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());

  describe('with the register answering, then failing', () => {
    afterEach(() => sandbox.clearFaults());

    it.each(CASES)(
      'a $kind lookup of a $subjectKind paid by $pays is answered by the register once, then by the cache, and charged once',
      async (payment) => {
        const { userId } = await t.createKey();
        const subject = subjectOf(payment.subjectKind);
        const user = { userId, monthlyQuota: null };
        const payer = await earlierCharge(payment, user, subject.unit);
        const first = await answerOf(requestOf(payment, subject, user, payer));
        expect(first).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
        if (payment.pays === 'its own charge') expect(first.newCharge).toMatchObject({ userId, licenceNumber: subject.unit, isNew: true });
        else expect(first.newCharge).toBeNull();
        const again = await answerOf(requestOf(payment, subject, user, payer));
        expect(again).toMatchObject({ state: 'answered', source: 'cache', result: { status: 'NOT_FOUND' }, newCharge: null });
        expect(await ledger(userId)).toEqual(payment.pays === 'nothing' ? [] : [subject.unit]);
      },
    );

    it.each(CASES)('a $kind lookup of a $subjectKind paid by $pays that fails refunds what it was paid with', async (payment) => {
      const { userId } = await t.createKey();
      const subject = subjectOf(payment.subjectKind);
      const user = { userId, monthlyQuota: null };
      const payer = await earlierCharge(payment, user, unknownNumber(3399, series));
      await sandbox.setFault({ fault: 'status-503' });
      await expect(answerOf(requestOf(payment, subject, user, payer))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      // A roster's row is refunded by the settlement of its failed job, in whichever process sees the failure first.
      expect(
        await until(
          () => ledger(userId),
          (rows) => rows.length === 0,
        ),
      ).toEqual([]);
    });
  });

  describe('with the register breaker open', () => {
    // The breaker as the worker leaves it after the register failed: open, for an hour (breaker-state.ts).
    const breakerKey = () => `${t.redisPrefix}:register-breaker`;
    beforeAll(() => t.redis.set(breakerKey(), JSON.stringify({ phase: 'open', failures: 5, openUntil: Date.now() + 3600_000, probeUntil: 0 })));
    afterAll(() => t.redis.del(breakerKey()));

    it.each(CASES)('a refused $kind lookup of a $subjectKind paid by $pays leaves no charge, no payer and no job', async (payment) => {
      const { userId } = await t.createKey();
      const subject = subjectOf(payment.subjectKind);
      const user = { userId, monthlyQuota: null };
      // A roster's rows are refused with their roster, before any is charged (reserve); the others lookup by lookup.
      const payer = payment.kind === 'batch' ? null : await earlierCharge(payment, user, unknownNumber(3398, series));
      const jobs = await jobCount();
      const refused = payment.kind === 'batch' ? t.app.get(LookupService).reserve(user, [subject]) : answerOf(requestOf(payment, subject, user, payer));
      await expect(refused).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await ledger(userId)).toEqual([]);
      expect(await jobCount()).toBe(jobs);
    });
  });
});
