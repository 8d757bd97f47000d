import { SANDBOX_LICENCES } from '@lvs/test-register';
import { quotaUsed, searchLicences, TestResponse } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';

const VERIFY_TIMEOUT_MS = 1500;
const TOO_MANY = { code: 'TOO_MANY_RESULTS', message: 'Too many search results; refine the search' };
const UNAVAILABLE = { code: 'SERVICE_UNAVAILABLE', message: 'Upstream service is temporarily unavailable; try again later' };

describe('POST /v1/licences/search: answers, the wait, the quota and single flight', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { VERIFY_TIMEOUT_MS: String(VERIFY_TIMEOUT_MS), REGISTER_REQUEST_TIMEOUT_MS: '4000', LOOKUP_ATTEMPTS: '2' },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());
  beforeEach(() => sandbox.resetCounts());
  afterEach(() => sandbox.clearFaults());

  const used = (apiKey: string) => quotaUsed(t.baseUrl, apiKey);

  async function chargeRows(userId: string): Promise<string[]> {
    const { rows } = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY licence_number', [userId]);
    return rows.map((row) => row.licence_number as string);
  }

  it('FOUND: both licences of a holder with two, after one request to the register', async () => {
    const { key } = await t.createKey({ quota: 10 });
    const response = await searchLicences(t.baseUrl, key, { surname: 'Hughes', firstName: 'Olivia' });
    expect(response.status).toBe(200);
    const body = response.body as { checkedAt: string };
    expect(body).toEqual({
      status: 'FOUND',
      message: 'Licences found',
      licences: [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew],
      checkedAt: body.checkedAt,
      dateOfBirthApplied: null,
    });
    expect(Date.parse(body.checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(response.headers.get('idempotency-key')).toMatch(/^auto-[0-9a-f]{40}$/);
    expect(await sandbox.counts()).toEqual({ total: 1, byLicence: {}, bySurname: { HUGHES: 1 } });
    expect(await used(key)).toBe(1);
  });

  it('404 NOT_FOUND with no licences for an unknown name', async () => {
    const { key } = await t.createKey({ quota: 10 });
    const response = await searchLicences(t.baseUrl, key, { surname: 'Nobody-Known', dateOfBirth: '1999-09-09' });
    expect(response.status).toBe(404);
    const body = response.body as { checkedAt: string };
    expect(body).toEqual({
      status: 'NOT_FOUND',
      message: 'No licence matches the search',
      licences: [],
      checkedAt: body.checkedAt,
      dateOfBirthApplied: true,
    });
    expect(await sandbox.counts()).toEqual({ total: 1, byLicence: {}, bySurname: { 'NOBODY-KNOWN': 1 } });
  });

  it('409 TOO_MANY_RESULTS for the too common name, cached like any result', async () => {
    const { key } = await t.createKey({ quota: 10 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await searchLicences(t.baseUrl, key, { surname: 'Smith' });
      expect([response.status, response.body]).toEqual([409, TOO_MANY]);
    }
    expect(await sandbox.counts()).toEqual({ total: 1, byLicence: {}, bySurname: { SMITH: 1 } });
    expect(await used(key)).toBe(1);
  });

  it('202 PENDING for a slow answer, then the result on a retry with the same key, charged once', async () => {
    const { key } = await t.createKey({ quota: 10 });
    await sandbox.setFault({ fault: 'none', latencyMs: VERIFY_TIMEOUT_MS + 700, times: 1 });
    const first = await searchLicences(t.baseUrl, key, { surname: 'Evans', firstName: 'Daniel' }, 'search-retry-1');
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      status: 'PENDING',
      message: 'Search is still in progress; retry with the same Idempotency-Key',
      licences: [],
      checkedAt: null,
      dateOfBirthApplied: null,
    });
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.headers.get('idempotency-key')).toBe('search-retry-1');

    const retry = await searchLicences(t.baseUrl, key, { surname: 'Evans', firstName: 'Daniel' }, 'search-retry-1');
    expect(retry.status).toBe(200);
    expect(
      (retry.body as { licences: { licenceNumber: string; status: string }[] }).licences.map(({ licenceNumber, status }) => [licenceNumber, status]),
    ).toEqual([
      ['1241223344556600', 'Replaced'],
      ['1252334455667700', 'Active'],
    ]);
    expect(await sandbox.counts()).toEqual({ total: 1, byLicence: {}, bySurname: { EVANS: 1 } });
    expect(await used(key)).toBe(1);
  });

  it('applies a date of birth within the bound for the names, and past it searches without: a right and a wrong date answer alike', async () => {
    const evans = { surname: 'Evans', firstName: 'Daniel' };
    const born = '1985-11-03';
    const applied = (response: TestResponse) => [response.status, (response.body as { dateOfBirthApplied: unknown }).dateOfBirthApplied];

    // Within the bound the date reaches the register, so it tells a right date from a wrong one.
    const control = await t.createKey({ quota: 10 });
    expect(applied(await searchLicences(t.baseUrl, control.key, { ...evans, dateOfBirth: born }))).toEqual([200, true]);
    expect(applied(await searchLicences(t.baseUrl, control.key, { ...evans, dateOfBirth: '1985-11-04' }))).toEqual([404, true]);

    // HOLDER_DATE_CHECKS_PER_NUMBER (3) wrong dates for the names, in any spelling, use up the month's bound...
    const { key } = await t.createKey({ quota: 10 });
    for (const [names, date] of [
      [evans, '1985-01-01'],
      [{ surname: ' EVANS', firstName: 'daniel ' }, '1985-01-02'],
      [{ ...evans, middleName: 'Robert', role: 'Front Line' }, '1985-01-03'],
    ] as const) {
      expect(applied(await searchLicences(t.baseUrl, key, { ...names, dateOfBirth: date }))).toEqual([404, true]);
    }
    // ...after which the right date and a wrong one give the same answer: the search by name alone.
    const right = await searchLicences(t.baseUrl, key, { ...evans, dateOfBirth: born });
    const wrong = await searchLicences(t.baseUrl, key, { ...evans, dateOfBirth: '1985-01-04' });
    expect(applied(right)).toEqual([200, false]);
    expect([wrong.status, wrong.body]).toEqual([right.status, right.body]);
    expect((right.body as { licences: { licenceNumber: string }[] }).licences.map((licence) => licence.licenceNumber)).toEqual([
      '1241223344556600',
      '1252334455667700',
    ]);
    // Another filter does not make another person: the date stays unapplied.
    const filtered = await searchLicences(t.baseUrl, key, { ...evans, role: 'Front Line', dateOfBirth: born });
    expect((filtered.body as { dateOfBirthApplied: unknown }).dateOfBirthApplied).toBe(false);
  });

  it('charges one unit per distinct normalised search; repeats, in any case or spacing, are free', async () => {
    const { key, userId } = await t.createKey({ quota: 10 });
    const answers = [
      await searchLicences(t.baseUrl, key, { surname: "D'Arcy" }),
      await searchLicences(t.baseUrl, key, { surname: "  d'arcy " }),
      await searchLicences(t.baseUrl, key, { surname: "D'ARCY", firstName: 'Anna-Marie' }),
      await searchLicences(t.baseUrl, key, { surname: "d'Arcy", firstName: 'anna-marie' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(await used(key)).toBe(2);
    // The ledger counts each search under a digest-named unit: neither the names nor a licence number.
    const rows = await chargeRows(userId);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^N[0-9a-f]{15}$/);
    expect(await sandbox.counts()).toEqual({ total: 2, byLicence: {}, bySurname: { "D'ARCY": 2 } });
  });

  it('asks the register once for 30 concurrent identical searches of two users, and charges each user once', async () => {
    const alice = await t.createKey({ quota: 5 });
    const bob = await t.createKey({ quota: 5 });
    await sandbox.setFault({ fault: 'none', latencyMs: 300, times: 1 });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) => searchLicences(t.baseUrl, index % 2 === 0 ? alice.key : bob.key, { surname: 'Garcia' })),
    );
    // The sandbox compares names as written: GARCIA is not GARCÍA.
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(404));
    expect(await sandbox.counts()).toEqual({ total: 1, byLicence: {}, bySurname: { GARCIA: 1 } });
    expect(await chargeRows(alice.userId)).toHaveLength(1);
    expect(await chargeRows(bob.userId)).toHaveLength(1);
  });

  it('leaves used unchanged after a 503, and the same search succeeds once the register is back', async () => {
    const { key } = await t.createKey({ quota: 10 });
    await sandbox.setFault({ fault: 'status-503' });
    const failed = await searchLicences(t.baseUrl, key, { surname: 'Khan', firstName: 'Ahmed' });
    expect([failed.status, failed.body]).toEqual([503, UNAVAILABLE]);
    expect(await used(key)).toBe(0);
    expect(await sandbox.counts()).toEqual({ total: 2, byLicence: {}, bySurname: { KHAN: 2 } }); // LOOKUP_ATTEMPTS

    await sandbox.clearFaults();
    const answered = await searchLicences(t.baseUrl, key, { surname: 'Khan', firstName: 'Ahmed' });
    expect(answered.status).toBe(200);
    expect(await used(key)).toBe(1);
  });

  it('refuses a search beyond the quota with 429, and a bad body with 400, asking nothing', async () => {
    const { key } = await t.createKey({ quota: 0 });
    const refused = await searchLicences(t.baseUrl, key, { surname: 'Bell' });
    expect([refused.status, refused.body]).toEqual([
      429,
      { code: 'QUOTA_EXCEEDED', message: 'Monthly verification quota exceeded; upgrade the plan to continue' },
    ]);
    for (const [body, message] of [
      [{}, 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes'],
      [{ surname: 'Bell', firstName: 'G2' }, 'firstName must be 1 to 50 letters, spaces, hyphens or apostrophes'],
      [{ surname: 'Bell', dateOfBirth: '12/04/1990' }, 'dateOfBirth must be a real date written YYYY-MM-DD'],
      [
        { surname: 'Bell', licenceNumber: '1011001544208079' },
        'Request body may only contain surname, firstName, middleName, dateOfBirth, role and licenceSector',
      ],
    ] as const) {
      const response = await searchLicences(t.baseUrl, key, body);
      expect([response.status, response.body]).toEqual([400, { code: 'VALIDATION_ERROR', message }]);
    }
    expect((await sandbox.counts()).total).toBe(0);
  });
});
