import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { quotaUsed, verify, verifyHolder } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { databaseText, redisText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

// OLIVIA HUGHES (two licences), DANIEL ROBERT EVANS and WILLIAM SMITH, as the sandbox's data has them.
const OLIVIA_BORN = '1990-04-12';
const DANIEL_BORN = '1985-11-03';
const WILLIAM_BORN = '1979-01-20';
const WRONG_DATE = '1990-04-13';
const SLOW_WRONG_DATE = '1990-04-11';
// JOSÉ O'BRIEN, added at run time: his date of birth is used only by the privacy check at the end.
const JOSE = {
  licenceNumber: '1310000000000024',
  firstName: 'JOSÉ',
  middleName: null,
  surname: "O'BRIEN",
  dateOfBirth: '1977-09-23',
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2028-09-23',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
};

describe('POST /v1/licences/verify-holder: names, dates of birth, quota and privacy', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { HOLDER_DATA_KEY: 'c0'.repeat(32), LOOKUP_ATTEMPTS: '2', VERIFY_TIMEOUT_MS: '1500', REGISTER_REQUEST_TIMEOUT_MS: '4000' },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
    await sandbox.addLicence(JOSE);
  });
  afterAll(() => t.close());
  beforeEach(() => sandbox.resetCounts());
  afterEach(() => sandbox.clearFaults());

  const used = (apiKey: string) => quotaUsed(t.baseUrl, apiKey);

  /** The register's requests since the test began: by number, by surname, and in all (at most two per check). */
  async function registerRequests(): Promise<{ byLicence: Record<string, number>; bySurname: Record<string, number>; total: number }> {
    const { byLicence, bySurname, total } = await sandbox.counts();
    return { byLicence, bySurname, total };
  }

  function expectFound(response: { status: number; body: unknown }, licence: object, holderCheck: object): void {
    expect(response.status).toBe(200);
    const body = response.body as { checkedAt: string; verificationId: string };
    expect(body).toEqual({
      status: 'FOUND',
      message: 'Licence found',
      licence,
      checkedAt: body.checkedAt,
      verificationId: body.verificationId,
      holderCheck,
    });
    expect(body.verificationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }

  describe('names', () => {
    it('the exact name gives MATCH, and without a date of birth NOT_CHECKED, after one request by number', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verifyHolder(t.baseUrl, key, { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'JANE', surname: 'DOE' });
      expectFound(response, SANDBOX_LICENCES.active, { name: 'MATCH', dateOfBirth: 'NOT_CHECKED' });
      expect(response.headers.get('idempotency-key')).toMatch(/^auto-[0-9a-f]{40}$/);
      expect(response.headers.get('x-verification-source')).toBe('register');
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.active]: 1 }, bySurname: {}, total: 1 });
      expect(await used(key)).toBe(1);
    });

    it.each([
      ["JOSÉ O'BRIEN as Jose Obrien (accents, case, apostrophe)", JOSE.licenceNumber, 'Jose', 'Obrien'],
      ["ANNA-MARIE D'ARCY as Anna Marie D'arcy (hyphen, case)", SANDBOX_NUMBERS.withConditions, 'Anna Marie', "D'arcy"],
    ])('%s gives MATCH', async (_case, licenceNumber, firstName, surname) => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verifyHolder(t.baseUrl, key, { licenceNumber, firstName, surname });
      expect(response.status).toBe(200);
      expect((response.body as { holderCheck: unknown }).holderCheck).toEqual({ name: 'MATCH', dateOfBirth: 'NOT_CHECKED' });
      expect(await registerRequests()).toEqual({ byLicence: { [licenceNumber]: 1 }, bySurname: {}, total: 1 });
    });

    it('an initial gives PARTIAL, answered from the cache without asking the register again', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verifyHolder(t.baseUrl, key, { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'J', surname: 'Doe' });
      expectFound(response, SANDBOX_LICENCES.active, { name: 'PARTIAL', dateOfBirth: 'NOT_CHECKED' });
      expect(response.headers.get('x-verification-source')).toBe('cache');
      expect((await registerRequests()).total).toBe(0);
    });

    it("another person's name gives MISMATCH", async () => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verifyHolder(t.baseUrl, key, { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'Olivia', surname: 'Hughes' });
      expectFound(response, SANDBOX_LICENCES.active, { name: 'MISMATCH', dateOfBirth: 'NOT_CHECKED' });
    });

    it('a number the register does not know answers as verify does, with holderCheck null', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const response = await verifyHolder(t.baseUrl, key, {
        licenceNumber: SANDBOX_NUMBERS.notFound,
        firstName: 'Jane',
        surname: 'Doe',
        dateOfBirth: OLIVIA_BORN,
      });
      expect(response.status).toBe(404);
      const body = response.body as { checkedAt: string };
      expect(body).toEqual({
        status: 'NOT_FOUND',
        message: 'No licence matches the number',
        licence: null,
        checkedAt: body.checkedAt,
        verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        holderCheck: null,
      });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.notFound]: 1 }, bySurname: {}, total: 1 });
    });
  });

  describe('dates of birth', () => {
    it('the right date gives CONFIRMED: one request by number and one name search, charged one unit', async () => {
      const { key, userId } = await t.createKey({ quota: 10 });
      const claim = { licenceNumber: SANDBOX_NUMBERS.renewedNew, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: OLIVIA_BORN };
      const response = await verifyHolder(t.baseUrl, key, claim);
      expectFound(response, SANDBOX_LICENCES.renewedNew, { name: 'MATCH', dateOfBirth: 'CONFIRMED' });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.renewedNew]: 1 }, bySurname: { HUGHES: 1 }, total: 2 });
      const { rows } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1', [userId]);
      expect(rows).toEqual([{ licence_number: SANDBOX_NUMBERS.renewedNew }]);

      // The same check again, and a plain verify of the number, are free and ask nothing.
      await sandbox.resetCounts();
      expectFound(await verifyHolder(t.baseUrl, key, claim), SANDBOX_LICENCES.renewedNew, { name: 'MATCH', dateOfBirth: 'CONFIRMED' });
      expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.renewedNew)).status).toBe(200);
      expect((await registerRequests()).total).toBe(0);
      expect(await used(key)).toBe(1);
    });

    it('a wrong date gives NOT_CONFIRMED, after one name search', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const claim = { licenceNumber: SANDBOX_NUMBERS.replacedNew, firstName: 'Daniel', surname: 'Evans', dateOfBirth: WRONG_DATE };
      const response = await verifyHolder(t.baseUrl, key, claim);
      expectFound(response, expect.objectContaining({ licenceNumber: SANDBOX_NUMBERS.replacedNew }), { name: 'MATCH', dateOfBirth: 'NOT_CONFIRMED' });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.replacedNew]: 1 }, bySurname: { EVANS: 1 }, total: 2 });
    });

    it("the right date for another of the holder's numbers confirms this one only when the search finds it", async () => {
      const { key } = await t.createKey({ quota: 10 });
      const claim = { licenceNumber: SANDBOX_NUMBERS.replacedOld, firstName: 'Daniel', surname: 'Evans', dateOfBirth: DANIEL_BORN };
      const response = await verifyHolder(t.baseUrl, key, claim);
      expect((response.body as { holderCheck: unknown }).holderCheck).toEqual({ name: 'MATCH', dateOfBirth: 'CONFIRMED' });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.replacedOld]: 1 }, bySurname: { EVANS: 1 }, total: 2 });
    });

    it('a number whose name search is too broad gives UNDETERMINED', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const claim = { licenceNumber: SANDBOX_NUMBERS.commonSurname, firstName: 'William', surname: 'Smith', dateOfBirth: WILLIAM_BORN };
      const response = await verifyHolder(t.baseUrl, key, claim);
      expectFound(response, expect.objectContaining({ licenceNumber: SANDBOX_NUMBERS.commonSurname }), { name: 'MATCH', dateOfBirth: 'UNDETERMINED' });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.commonSurname]: 1 }, bySurname: { SMITH: 1 }, total: 2 });
    });

    it('202 PENDING while the date-of-birth search is slow, then the check on a retry with the same key, charged once', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const claim = { licenceNumber: SANDBOX_NUMBERS.renewedOld, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: SLOW_WRONG_DATE };
      // The number is answered at once; the name search after it waits past the 1.5 s bound.
      await sandbox.setFault({ fault: 'none', latencyMs: 0, licenceNumber: SANDBOX_NUMBERS.renewedOld });
      await sandbox.setFault({ fault: 'none', latencyMs: 2200, times: 1 });
      const first = await verifyHolder(t.baseUrl, key, claim, 'holder-retry-1');
      expect(first.status).toBe(202);
      expect(first.body).toEqual({
        status: 'PENDING',
        message: 'Verification is still in progress; retry with the same Idempotency-Key',
        licence: null,
        checkedAt: null,
        holderCheck: null,
      });
      expect([first.headers.get('retry-after'), first.headers.get('idempotency-key')]).toEqual(['1', 'holder-retry-1']);

      const retry = await until(
        () => verifyHolder(t.baseUrl, key, claim, 'holder-retry-1'),
        (response) => response.status !== 202,
      );
      expectFound(retry, SANDBOX_LICENCES.renewedOld, { name: 'MATCH', dateOfBirth: 'NOT_CONFIRMED' });
      expect(await registerRequests()).toEqual({ byLicence: { [SANDBOX_NUMBERS.renewedOld]: 1 }, bySurname: { HUGHES: 1 }, total: 2 });
      expect(await used(key)).toBe(1);
    });

    it('a failing date-of-birth search fails the check with 503, and its charge is refunded', async () => {
      const { key } = await t.createKey({ quota: 10 });
      // The number is cached first, so that only the name search meets the register's fault.
      expect((await verify(t.baseUrl, (await t.createKey()).key, SANDBOX_NUMBERS.nonFrontLine)).status).toBe(200);
      await sandbox.setFault({ fault: 'status-503' });
      await sandbox.resetCounts();
      const response = await verifyHolder(t.baseUrl, key, {
        licenceNumber: SANDBOX_NUMBERS.nonFrontLine,
        firstName: 'Graham',
        surname: 'Bell',
        dateOfBirth: '1970-01-01',
      });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Upstream service is temporarily unavailable; try again later' });
      expect(await registerRequests()).toEqual({ byLicence: {}, bySurname: { BELL: 2 }, total: 2 }); // LOOKUP_ATTEMPTS
      expect(await used(key)).toBe(0);
    });

    it('refuses a date that is no day, and a body with other fields, with nothing charged or asked', async () => {
      const { key } = await t.createKey({ quota: 10 });
      const badDate = await verifyHolder(t.baseUrl, key, {
        licenceNumber: SANDBOX_NUMBERS.active,
        firstName: 'Jane',
        surname: 'Doe',
        dateOfBirth: '1988-02-30',
      });
      expect([badDate.status, badDate.body]).toEqual([400, { code: 'VALIDATION_ERROR', message: 'dateOfBirth must be a real date written YYYY-MM-DD' }]);
      const extra = await verifyHolder(t.baseUrl, key, { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'Jane', surname: 'Doe', middleName: 'X' });
      expect([extra.status, extra.body]).toEqual([
        400,
        { code: 'VALIDATION_ERROR', message: 'Request body may only contain licenceNumber, firstName, surname and dateOfBirth' },
      ]);
      const noSurname = await verifyHolder(t.baseUrl, key, { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'Jane' });
      expect([noSurname.status, noSurname.body]).toEqual([
        400,
        { code: 'VALIDATION_ERROR', message: 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes' },
      ]);
      expect(await used(key)).toBe(0);
      expect((await registerRequests()).total).toBe(0);
    });
  });

  // Last: it reads what every test above left behind.
  it('leaves no date of birth in clear in any log line, Redis value or PostgreSQL column', async () => {
    const dates = [OLIVIA_BORN, DANIEL_BORN, WILLIAM_BORN, WRONG_DATE, SLOW_WRONG_DATE, JOSE.dateOfBirth, '1970-01-01'];
    // Each date as written to the register too (DD/MM/YYYY), and as its digits alone.
    const written = dates.flatMap((date) => {
      const [year, month, day] = date.split('-');
      return [date, `${day}/${month}/${year}`, `${day}%2F${month}%2F${year}`, `${year}${month}${day}`];
    });
    const places = {
      logs: [...t.logLines, ...t.workers.map((worker) => worker.log)].join('\n'),
      redis: await redisText(t.redis, t.redisPrefix),
      postgres: await databaseText(t.db),
    };
    // The scan must have seen what the checks stored, or it proves nothing.
    expect(places.logs).toContain('Name search: FOUND');
    expect(places.redis).toContain(':name-result:');
    expect(places.postgres).toContain(SANDBOX_NUMBERS.renewedNew);
    for (const [place, text] of Object.entries(places)) {
      expect({ place, found: written.filter((date) => text.includes(date)) }).toEqual({ place, found: [] });
    }
  });
});
