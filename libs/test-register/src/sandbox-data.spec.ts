import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSandboxData } from './sandbox-data';
import type { SandboxData, SandboxLicence } from './sandbox-data';
import { SANDBOX_LICENCES, shownOnCard } from './sandbox-licences';
import { SANDBOX_NUMBERS } from './sandbox-numbers';

const STATUSES = ['Active', 'Expired', 'Revoked', 'Suspended', 'Surrendered', 'Refused', 'Replaced'];
const SECTORS = [
  'Door Supervision',
  'Security Guarding',
  'Security Guard',
  'Public Space Surveillance (CCTV)',
  'Close Protection',
  'Cash and Valuables in Transit',
  'Key Holding',
  'Vehicle Immobilisation',
];

describe('the shipped data set', () => {
  let data: SandboxData;
  let licences: SandboxLicence[];
  const only = (number: string): SandboxLicence => {
    const found = data.licencesByNumber.get(number) ?? [];
    expect(found).toHaveLength(1);
    return found[0];
  };

  beforeAll(async () => {
    data = await loadSandboxData();
    licences = [...data.licencesByNumber.values()].flat();
  });

  it('holds at least 20 licences covering every status and sector, with awkward names and reasons', () => {
    expect(licences.length).toBeGreaterThanOrEqual(20);
    expect(new Set(licences.map(({ status }) => status))).toEqual(new Set([...STATUSES, 'Under Review']));
    expect(new Set(licences.map(({ licenceSector }) => licenceSector))).toEqual(new Set([...SECTORS, null]));
    expect(licences.filter(({ surname }) => surname.includes("'")).length).toBeGreaterThanOrEqual(3);
    expect(licences.filter(({ statusReason }) => statusReason !== null).length).toBeGreaterThanOrEqual(3);
    expect(licences.filter(({ additionalConditions }) => additionalConditions !== null).length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['active', 'Active'],
    ['expired', 'Expired'],
    ['revoked', 'Revoked'],
    ['suspended', 'Suspended'],
    ['surrendered', 'Surrendered'],
    ['refused', 'Refused'],
    ['unknownStatus', 'Under Review'],
  ] as const)('SANDBOX_NUMBERS.%s is one licence with status %s', (key, status) => {
    expect(only(SANDBOX_NUMBERS[key]).status).toBe(status);
  });

  it('SANDBOX_NUMBERS.expired and .nonFrontLine are Non Front Line licences with an empty sector', () => {
    expect(only(SANDBOX_NUMBERS.expired)).toMatchObject({ role: 'Non Front Line', licenceSector: null, surname: "O'BRIEN" });
    expect(only(SANDBOX_NUMBERS.nonFrontLine)).toMatchObject({ role: 'Non Front Line', licenceSector: null });
  });

  it.each(Object.keys(SANDBOX_LICENCES) as (keyof typeof SANDBOX_LICENCES)[])(
    'SANDBOX_LICENCES.%s is the shipped licence at its number, with no date of birth or licence type',
    (key) => {
      const licence = SANDBOX_LICENCES[key];
      expect(shownOnCard(only(licence.licenceNumber))).toEqual(licence);
    },
  );

  it('SANDBOX_NUMBERS.withConditions has a status reason and additional conditions', () => {
    const licence = only(SANDBOX_NUMBERS.withConditions);
    expect(licence.statusReason).not.toBeNull();
    expect(licence.additionalConditions).not.toBeNull();
  });

  it('SANDBOX_NUMBERS.twoCards is two licences, .tooMany is a too-many number, .notFound is in no list', () => {
    expect(data.licencesByNumber.get(SANDBOX_NUMBERS.twoCards)).toHaveLength(2);
    expect([...data.tooManyResults]).toEqual([SANDBOX_NUMBERS.tooMany]);
    expect(SANDBOX_NUMBERS.notFound).toMatch(/^\d{16}$/);
    expect(data.licencesByNumber.has(SANDBOX_NUMBERS.notFound)).toBe(false);
    expect(data.reservedFaults.has(SANDBOX_NUMBERS.notFound)).toBe(false);
  });

  it('reserves exactly the SANDBOX_NUMBERS fault numbers, each for its fault, and no licence uses them', () => {
    expect(Object.fromEntries(data.reservedFaults)).toEqual({
      [SANDBOX_NUMBERS.fault503]: 'status-503',
      [SANDBOX_NUMBERS.fault500]: 'status-500',
      [SANDBOX_NUMBERS.fault429]: 'status-429',
      [SANDBOX_NUMBERS.fault404]: 'status-404',
      [SANDBOX_NUMBERS.faultHang]: 'hang',
      [SANDBOX_NUMBERS.faultReset]: 'reset',
      [SANDBOX_NUMBERS.faultMaintenance]: 'maintenance',
      [SANDBOX_NUMBERS.faultTruncated]: 'truncated',
      [SANDBOX_NUMBERS.faultOversize]: 'oversize',
      [SANDBOX_NUMBERS.faultRedirect]: 'redirect',
    });
    for (const number of data.reservedFaults.keys()) {
      expect(data.licencesByNumber.has(number) || data.tooManyResults.has(number)).toBe(false);
    }
  });

  it('holds OLIVIA HUGHES and DANIEL ROBERT EVANS with an old and a new licence each, born on one day', () => {
    expect([SANDBOX_NUMBERS.renewedOld, SANDBOX_NUMBERS.renewedNew].map((number) => only(number))).toEqual([
      expect.objectContaining({ firstName: 'OLIVIA', middleName: null, surname: 'HUGHES', dateOfBirth: '1990-04-12', status: 'Expired' }),
      expect.objectContaining({ firstName: 'OLIVIA', middleName: null, surname: 'HUGHES', dateOfBirth: '1990-04-12', status: 'Active' }),
    ]);
    expect([SANDBOX_NUMBERS.replacedOld, SANDBOX_NUMBERS.replacedNew].map((number) => only(number))).toEqual([
      expect.objectContaining({ firstName: 'DANIEL', middleName: 'ROBERT', surname: 'EVANS', dateOfBirth: '1985-11-03', status: 'Replaced' }),
      expect.objectContaining({ firstName: 'DANIEL', middleName: 'ROBERT', surname: 'EVANS', dateOfBirth: '1985-11-03', status: 'Active' }),
    ]);
    expect(licences.filter(({ surname }) => surname === 'HUGHES' || surname === 'EVANS')).toHaveLength(4);
  });

  it('makes SMITH the too-common surname, with SANDBOX_NUMBERS.commonSurname one Active licence of it', () => {
    expect(data.tooManySurnames).toEqual(new Set(['SMITH']));
    expect(only(SANDBOX_NUMBERS.commonSurname)).toMatchObject({ firstName: 'WILLIAM', surname: 'SMITH', status: 'Active' });
  });

  it("knows the dates of birth of JANE DOE and MARY ANNE O'BRIEN, and not every holder's", () => {
    expect(only(SANDBOX_NUMBERS.active).dateOfBirth).toBe('1988-07-15');
    expect(only(SANDBOX_NUMBERS.expired).dateOfBirth).toBe('1975-03-02');
    expect(only(SANDBOX_NUMBERS.nonFrontLine).dateOfBirth).toBeNull();
  });

  it('gives every SANDBOX_NUMBERS entry a distinct number', () => {
    const numbers = Object.values(SANDBOX_NUMBERS);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe('loadSandboxData from a file', () => {
  let directory: string;
  const validLicence = {
    licenceNumber: '1234567812345678',
    firstName: 'ANA',
    surname: 'LIMA',
    role: 'Front Line',
    licenceSector: 'Key Holding',
    expiryDate: '2027-02-28',
    status: 'Active',
  };
  const writeData = (content: unknown): string => {
    const file = join(directory, `data-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'register-sandbox-'));
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads dates of birth, middle names and too-common surnames, the latter as upper case', async () => {
    const data = await loadSandboxData(
      writeData({
        licences: [{ ...validLicence, middleName: 'MARIA', dateOfBirth: '2000-02-29' }],
        tooManyResults: [],
        tooManySurnames: ['Lima', ' da  silva '],
        faults: {},
      }),
    );

    expect(data.licencesByNumber.get('1234567812345678')).toMatchObject([{ middleName: 'MARIA', dateOfBirth: '2000-02-29' }]);
    expect(data.tooManySurnames).toEqual(new Set(['LIMA', 'DA SILVA']));
  });

  it('reads licences, filling absent optional fields with null', async () => {
    const data = await loadSandboxData(
      writeData({ licences: [validLicence], tooManyResults: ['8765432187654321'], faults: { '1111222233334444': 'hang' } }),
    );

    expect(Object.fromEntries(data.licencesByNumber)).toEqual({
      '1234567812345678': [{ ...validLicence, middleName: null, dateOfBirth: null, statusReason: null, additionalConditions: null }],
    });
    expect([...data.tooManyResults]).toEqual(['8765432187654321']);
    expect(data.tooManySurnames).toEqual(new Set());
    expect(Object.fromEntries(data.reservedFaults)).toEqual({ '1111222233334444': 'hang' });
  });

  it.each([
    ['not JSON', '{licences: []', /is invalid: .*JSON/],
    [
      'a licence number that is not 16 digits',
      { licences: [{ ...validLicence, licenceNumber: '123' }], tooManyResults: [], faults: {} },
      /licences\[0\]\.licenceNumber must be 16 digits/,
    ],
    [
      'an impossible expiry date',
      { licences: [{ ...validLicence, expiryDate: '2027-02-31' }], tooManyResults: [], faults: {} },
      /licences\[0\]\.expiryDate must be a YYYY-MM-DD date/,
    ],
    [
      'an empty surname',
      { licences: [{ ...validLicence, surname: '' }], tooManyResults: [], faults: {} },
      /licences\[0\]\.surname must be a non-empty string/,
    ],
    [
      'an unknown fault',
      { licences: [], tooManyResults: [], faults: { '1111222233334444': 'explode' } },
      /faults\["1111222233334444"\] is not a fault name/,
    ],
    ['no tooManyResults list', { licences: [], faults: {} }, /tooManyResults must be an array/],
    [
      'an impossible date of birth',
      { licences: [{ ...validLicence, dateOfBirth: '1990-02-30' }], tooManyResults: [], faults: {} },
      /licences\[0\]\.dateOfBirth must be a YYYY-MM-DD date/,
    ],
    [
      'a date of birth written DD/MM/YYYY',
      { licences: [{ ...validLicence, dateOfBirth: '12/04/1990' }], tooManyResults: [], faults: {} },
      /licences\[0\]\.dateOfBirth must be a YYYY-MM-DD date/,
    ],
    [
      'a blank too-common surname',
      { licences: [], tooManyResults: [], tooManySurnames: [' '], faults: {} },
      /tooManySurnames\[0\] must be a non-empty string/,
    ],
  ])('refuses a file with %s, naming the file', async (_, content, message) => {
    const file = writeData(content);

    const error: unknown = await loadSandboxData(file).catch((rejection: unknown) => rejection);

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`Sandbox data in ${file} is invalid: `);
    expect((error as Error).message).toMatch(message);
  });
});
