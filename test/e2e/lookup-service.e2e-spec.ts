import { NameSearchSubjects } from '../../src/holders/name-search-subjects';
import type { LookupSubject } from '../../src/lookups/lookup-subject';
import { LookupKind, LookupService } from '../../src/lookups/lookup.service';
import { QuotaService } from '../../src/quota/quota.service';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber } from '../support/until';

const KINDS: LookupKind[] = ['live', 'batch', 'recheck'];
const SUBJECTS = ['licence number', 'name search'] as const;
type SubjectKind = (typeof SUBJECTS)[number];

/** Every kind of lookup, for every kind of subject: the rules of the one road are stated once and run for each. */
const CASES = KINDS.flatMap((kind) => SUBJECTS.map((subjectKind) => ({ kind, subjectKind })));

/**
 * LookupService, the one road to the register, against the real worker, Redis, PostgreSQL and sandbox register.
 * Each rule is written once and run for each kind of lookup (live, batch, re-check) and each kind of subject.
 */
describe('LookupService: the rules of the one road', () => {
  let series = 3300;
  const subjectOf = (subjectKind: SubjectKind): LookupSubject => {
    series += 1;
    return subjectKind === 'licence number'
      ? t.app.get(LookupService).numberSubject(unknownNumber(series, 0))
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
      'a $kind lookup of a $subjectKind is answered by the register once, then by the cache, and charged once',
      async ({ kind, subjectKind }) => {
        const { userId } = await t.createKey();
        const lookups = t.app.get(LookupService);
        const subject = subjectOf(subjectKind);
        const user = { userId, monthlyQuota: null };
        const first = await lookups.lookup({ subject, user, kind, deadline: Date.now() + 20_000, charge: true });
        expect(first).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
        expect(first.newCharge).toMatchObject({ userId, licenceNumber: subject.unit, isNew: true });
        const again = await lookups.lookup({ subject, user, kind, deadline: Date.now() + 20_000, charge: true });
        expect(again).toMatchObject({ state: 'answered', source: 'cache', result: { status: 'NOT_FOUND' }, newCharge: null });
        expect(await ledger(userId)).toEqual([subject.unit]);
      },
    );

    it.each(CASES)('a $kind lookup of a $subjectKind that fails refunds its charge and its payer', async ({ kind, subjectKind }) => {
      const { userId } = await t.createKey();
      const lookups = t.app.get(LookupService);
      const payer = await t.app.get(QuotaService).chargeOnce({ userId, monthlyQuota: null }, unknownNumber(3399, series));
      const subject = subjectOf(subjectKind);
      await sandbox.setFault({ fault: 'status-503' });
      await expect(
        lookups.lookup({ subject, user: { userId, monthlyQuota: null }, kind, deadline: Date.now() + 20_000, charge: true, payer }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await ledger(userId)).toEqual([]);
    });
  });

  describe('with the register breaker open', () => {
    // The breaker as the worker leaves it after the register failed: open, for an hour (breaker-state.ts).
    const breakerKey = () => `${t.redisPrefix}:register-breaker`;
    beforeAll(() => t.redis.set(breakerKey(), JSON.stringify({ phase: 'open', failures: 5, openUntil: Date.now() + 3600_000, probeUntil: 0 })));
    afterAll(() => t.redis.del(breakerKey()));

    it.each(CASES)('a refused $kind lookup of a $subjectKind leaves no charge, no payer and no job', async ({ kind, subjectKind }) => {
      const { userId } = await t.createKey();
      const payer = await t.app.get(QuotaService).chargeOnce({ userId, monthlyQuota: null }, unknownNumber(3398, series));
      const jobs = await jobCount();
      await expect(
        t.app.get(LookupService).lookup({
          subject: subjectOf(subjectKind),
          user: { userId, monthlyQuota: null },
          kind,
          deadline: Date.now() + 20_000,
          charge: true,
          payer,
        }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await ledger(userId)).toEqual([]);
      expect(await jobCount()).toBe(jobs);
    });
  });
});
