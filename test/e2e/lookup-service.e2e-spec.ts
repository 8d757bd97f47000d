import { NameSearchSubjects } from '../../src/holders/name-search-subjects';
import type { LookupSubject } from '../../src/lookups/lookup-subject';
import { LookupKind, LookupService } from '../../src/lookups/lookup.service';
import { QuotaService } from '../../src/quota/quota.service';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

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
  const subjectOf = (t: TestApp, subjectKind: SubjectKind): LookupSubject => {
    series += 1;
    return subjectKind === 'licence number'
      ? t.app.get(LookupService).numberSubject(unknownNumber(series, 0))
      : t.app.get(NameSearchSubjects).subject({ surname: `NOBODY${series}` });
  };
  const ledger = async (t: TestApp, userId: string): Promise<string[]> =>
    (await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId])).rows.map(
      (row: { licence_number: string }) => row.licence_number,
    );
  const jobCount = async (t: TestApp): Promise<number> => {
    const keys = await t.redis.keys(`${t.redisPrefix}:bull:register-lookup:*`);
    return keys.filter((key) => /:[0-9a-f-]{36}$/.test(key)).length;
  };

  describe('with the register answering, then failing', () => {
    let t: TestApp;
    let sandbox: SandboxAdmin;
    beforeAll(async () => {
      t = await startTestApp({ withWorker: true, env: { LOOKUP_ATTEMPTS: '1', REGISTER_BREAKER_FAILURES: '1000' } });
      sandbox = new SandboxAdmin(t.sandbox.url);
    });
    afterAll(() => t.close());
    afterEach(() => sandbox.clearFaults());

    it.each(CASES)('a $kind lookup of a $subjectKind is answered by the register once, then by the cache, and charged once', async ({ kind, subjectKind }) => {
      const { userId } = await t.createKey();
      const lookups = t.app.get(LookupService);
      const subject = subjectOf(t, subjectKind);
      const user = { userId, monthlyQuota: null };
      const first = await lookups.lookup({ subject, user, kind, deadline: Date.now() + 20_000, charge: true });
      expect(first).toMatchObject({ state: 'answered', source: 'register', result: { status: 'NOT_FOUND' } });
      expect(first.newCharge).toMatchObject({ userId, licenceNumber: subject.unit, isNew: true });
      const again = await lookups.lookup({ subject, user, kind, deadline: Date.now() + 20_000, charge: true });
      expect(again).toMatchObject({ state: 'answered', source: 'cache', result: { status: 'NOT_FOUND' }, newCharge: null });
      expect(await ledger(t, userId)).toEqual([subject.unit]);
    });

    it.each(CASES)('a $kind lookup of a $subjectKind that fails refunds its charge and its payer', async ({ kind, subjectKind }) => {
      const { userId } = await t.createKey();
      const lookups = t.app.get(LookupService);
      const payer = await t.app.get(QuotaService).chargeOnce({ userId, monthlyQuota: null }, unknownNumber(3399, series));
      const subject = subjectOf(t, subjectKind);
      await sandbox.setFault({ fault: 'status-503' });
      await expect(
        lookups.lookup({ subject, user: { userId, monthlyQuota: null }, kind, deadline: Date.now() + 20_000, charge: true, payer }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await ledger(t, userId)).toEqual([]);
    });
  });

  describe('with the register breaker open', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        withWorker: true,
        env: { LOOKUP_ATTEMPTS: '1', REGISTER_BREAKER_FAILURES: '1', REGISTER_BREAKER_COOLDOWN_SECONDS: '3600' },
      });
      const sandbox = new SandboxAdmin(t.sandbox.url);
      await sandbox.setFault({ fault: 'status-503' });
      // One lookup that finds the register unavailable opens the breaker for an hour (its job may wait for retries).
      const { userId } = await t.createKey();
      void t.app
        .get(LookupService)
        .lookup({ subject: subjectOf(t, 'licence number'), user: { userId, monthlyQuota: null }, kind: 'live', deadline: null })
        .catch(() => undefined);
      await until(() => t.redis.get(`${t.redisPrefix}:register-breaker`), (stored) => stored !== null && JSON.parse(stored).phase === 'open', 30_000);
      await sandbox.clearFaults();
    });
    afterAll(() => t.close());

    it.each(CASES)('a refused $kind lookup of a $subjectKind leaves no charge, no payer and no job', async ({ kind, subjectKind }) => {
      const { userId } = await t.createKey();
      const payer = await t.app.get(QuotaService).chargeOnce({ userId, monthlyQuota: null }, unknownNumber(3398, series));
      const jobs = await jobCount(t);
      await expect(
        t.app.get(LookupService).lookup({
          subject: subjectOf(t, subjectKind),
          user: { userId, monthlyQuota: null },
          kind,
          deadline: Date.now() + 20_000,
          charge: true,
          payer,
        }),
      ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await ledger(t, userId)).toEqual([]);
      expect(await jobCount(t)).toBe(jobs);
    });
  });
});
