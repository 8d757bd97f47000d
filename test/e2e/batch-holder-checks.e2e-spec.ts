import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { parse } from 'csv-parse/sync';
import { quotaUsed, request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { databaseText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

interface Item {
  index: number;
  status: string;
  holderCheck?: { name: string; dateOfBirth: string } | null;
}

// Ten rows: names with and without a date of birth, a holder on a number the register does not know, and a row
// that names nobody. Rows 3 and 4 ask the same date-of-birth search (OLIVIA HUGHES holds both numbers).
const ROWS: [licenceNumber: string, firstName: string, surname: string, dateOfBirth: string, nameCheck: string, dateOfBirthCheck: string][] = [
  [SANDBOX_NUMBERS.active, 'Jane', 'Doe', '', 'MATCH', 'NOT_CHECKED'],
  [SANDBOX_NUMBERS.active, 'J', 'Doe', '', 'PARTIAL', 'NOT_CHECKED'],
  [SANDBOX_NUMBERS.renewedNew, 'Olivia', 'Hughes', '1990-04-12', 'MATCH', 'CONFIRMED'],
  [SANDBOX_NUMBERS.renewedOld, 'OLIVIA', 'HUGHES', '1990-04-12', 'MATCH', 'CONFIRMED'],
  [SANDBOX_NUMBERS.replacedNew, 'Daniel', 'Evans', '1985-11-04', 'MATCH', 'NOT_CONFIRMED'],
  [SANDBOX_NUMBERS.commonSurname, 'William', 'Smith', '1979-01-20', 'MATCH', 'UNDETERMINED'],
  [SANDBOX_NUMBERS.withConditions, 'Anna Marie', "D'Arcy", '', 'MATCH', 'NOT_CHECKED'],
  [SANDBOX_NUMBERS.active, 'Olivia', 'Hughes', '', 'MISMATCH', 'NOT_CHECKED'],
  [SANDBOX_NUMBERS.notFound, 'Jane', 'Doe', '1988-07-15', '', ''],
  [SANDBOX_NUMBERS.expired, '', '', '', '', ''],
];

describe('batches with holder columns', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { HOLDER_DATA_KEY: 'd1'.repeat(32) } });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());

  const post = (apiKey: string, csv: string) =>
    request(t.baseUrl, 'POST', '/v1/batches', { headers: { 'x-api-key': apiKey, 'content-type': 'text/csv' }, body: csv });
  const get = (apiKey: string, path: string) => request(t.baseUrl, 'GET', path, { headers: { 'x-api-key': apiKey } });

  it('checks the holder of every row that names one, and the CSV download shows nameCheck and dateOfBirthCheck per row', async () => {
    const { key } = await t.createKey({ quota: 20 });
    const csv = [
      'reference;Licence number;First name;Surname;Date of birth',
      ...ROWS.map((row, index) => [`row-${index + 1}`, ...row.slice(0, 4)].join(';')),
    ].join('\r\n');
    const created = await post(key, `${csv}\r\n`);
    expect([200, 202]).toContain(created.status);
    const { id } = created.body as { id: string };

    const done = await until(
      () => get(key, `/v1/batches/${id}`),
      (response) => (response.body as { status: string }).status === 'COMPLETED',
    );
    const items = (done.body as { items: Item[] }).items;
    expect(items.map((item) => item.status)).toEqual(['FOUND', 'FOUND', 'FOUND', 'FOUND', 'FOUND', 'FOUND', 'FOUND', 'FOUND', 'NOT_FOUND', 'FOUND']);
    expect(items.map((item) => item.holderCheck)).toEqual([
      ...ROWS.slice(0, 8).map(([, , , , name, dateOfBirth]) => ({ name, dateOfBirth })),
      null, // a holder on a number the register does not know: nothing to compare with
      undefined, // a row that names nobody has no holderCheck at all
    ]);
    expect('holderCheck' in items[9]).toBe(false);

    const download = await get(key, `/v1/batches/${id}/results.csv`);
    expect(download.status).toBe(200);
    const parsed = parse<Record<string, string>>(download.text, { bom: true, columns: true });
    expect(parsed.map((row) => [row.reference, row.licenceNumber, row.nameCheck, row.dateOfBirthCheck])).toEqual(
      ROWS.map(([licenceNumber, , , , name, dateOfBirth], index) => [`row-${index + 1}`, licenceNumber, name, dateOfBirth]),
    );

    // One name search per distinct date-of-birth search (rows 3 and 4 share one), and one unit per distinct number.
    expect((await sandbox.counts()).bySurname).toEqual({ HUGHES: 1, EVANS: 1, SMITH: 1 });
    expect(await quotaUsed(t.baseUrl, key)).toBe(new Set(ROWS.map(([licenceNumber]) => licenceNumber)).size);
    // The dates are kept sealed: none is in the database in clear.
    const stored = await databaseText(t.db);
    expect(stored).toContain(SANDBOX_NUMBERS.renewedNew);
    for (const dateOfBirth of ['1990-04-12', '1985-11-04', '1979-01-20', '1988-07-15']) expect(stored).not.toContain(dateOfBirth);
  });

  it('refuses a row with a first name but no surname with 400 naming the row, creating and charging nothing', async () => {
    const { key, userId } = await t.createKey({ quota: 20 });
    const csv = `licenceNumber,firstName,surname\r\n${SANDBOX_NUMBERS.active},Jane,Doe\r\n${SANDBOX_NUMBERS.expired},Mary,\r\n`;
    const refused = await post(key, csv);
    expect([refused.status, refused.body]).toEqual([
      400,
      { code: 'VALIDATION_ERROR', message: 'Row 3: firstName and surname must come together, each 1 to 50 letters, spaces, hyphens or apostrophes' },
    ]);
    const { rows } = await t.db.query('SELECT count(*)::int AS batches FROM batches WHERE user_id = $1', [userId]);
    expect(rows).toEqual([{ batches: 0 }]);
    expect(await quotaUsed(t.baseUrl, key)).toBe(0);
  });
});
