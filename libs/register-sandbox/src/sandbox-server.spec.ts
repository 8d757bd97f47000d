import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KNOWN_PAGE_SHAPES, pageShape, parseNameSearchPage, parseRegisterPage } from '@lvs/register';
import type { LookupOutcome } from '@lvs/register';
import { Agent, request } from 'undici';
import { SANDBOX_LICENCES, shownOnCard } from '@lvs/test-register';
import { FOUND_SANDBOX_NUMBERS, SANDBOX_NUMBERS } from '@lvs/test-register';
import { startSandbox } from './sandbox-server';
import type { RunningSandbox } from './sandbox-server';

const SEARCH_PATH = '/PublicRegister/SearchPublicRegisterByLicence';
const NAME_SEARCH_PATH = '/PublicRegister/SearchPublicRegisterBySurname';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('register sandbox', () => {
  let sandbox: RunningSandbox;
  // Our own pool, so no keep-alive socket outlives the suite.
  const agent = new Agent();

  const send = async (method: string, path: string, body?: string, signal?: AbortSignal): Promise<RawAnswer> => {
    const response = await request(`${sandbox.url}${path}`, { method, body, signal, dispatcher: agent });
    return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
  };
  const search = (licenceNumber: string, signal?: AbortSignal): Promise<RawAnswer> =>
    send('POST', SEARCH_PATH, new URLSearchParams({ LicenseNo: licenceNumber }).toString(), signal);
  const searchByName = (fields: Record<string, string>): Promise<RawAnswer> => send('POST', NAME_SEARCH_PATH, new URLSearchParams(fields).toString());
  const outcomeOf = async (licenceNumber: string): Promise<LookupOutcome> => {
    const answer = await search(licenceNumber);
    expect(answer.status).toBe(200);
    return parseRegisterPage(answer.body, licenceNumber);
  };
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await send(method, path, body === undefined ? undefined : JSON.stringify(body));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    return JSON.parse(answer.body);
  };
  const setFault = (setting: Record<string, unknown>): Promise<unknown> => admin('PUT', '/__sandbox/fault', setting);

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });

  beforeEach(async () => {
    await admin('DELETE', '/__sandbox/fault');
    await admin('DELETE', '/__sandbox/requests');
    await admin('DELETE', '/__sandbox/page-variant');
  });

  afterAll(async () => {
    await sandbox.close();
    await agent.close();
  });

  it('listens on a random port of 127.0.0.1', () => {
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
  });

  describe('search', () => {
    it('answers a found licence with a 200 HTML page holding its card', async () => {
      const answer = await search(SANDBOX_NUMBERS.active);

      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(parseRegisterPage(answer.body, SANDBOX_NUMBERS.active)).toMatchObject({
        kind: 'found',
        licence: { surname: 'DOE', status: 'Active' },
      });
    });

    it.each([
      ['notFound', SANDBOX_NUMBERS.notFound, { kind: 'not_found' }],
      ['tooMany', SANDBOX_NUMBERS.tooMany, { kind: 'too_many_results' }],
      ['twoCards', SANDBOX_NUMBERS.twoCards, { kind: 'too_many_results' }],
      ['a number too short', '101100154420807', { kind: 'not_found' }],
      ['a number with a letter', '101100154420807X', { kind: 'not_found' }],
      ['an empty number', '', { kind: 'not_found' }],
    ])('answers %s with the matching page', async (_, licenceNumber, outcome) => {
      await expect(outcomeOf(licenceNumber)).resolves.toEqual(outcome);
    });

    it('renders two cards for twoCards', async () => {
      const answer = await search(SANDBOX_NUMBERS.twoCards);

      expect(answer.body.match(/class="container well panel panel-default"/g)).toHaveLength(2);
    });

    it('serves the search form on GET /PublicRegister/', async () => {
      const answer = await send('GET', '/PublicRegister/');

      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<input class="form-control" id="LicenseNo" name="LicenseNo" type="text" value="" />');
    });

    it('answers unknown routes with 404, as JSON under /__sandbox/', async () => {
      expect((await send('GET', '/PublicRegister/Error')).status).toBe(404);
      expect(await send('GET', '/__sandbox/nothing')).toMatchObject({
        status: 404,
        body: '{"error":"no admin route GET /__sandbox/nothing"}',
      });
    });
  });

  describe('request counter', () => {
    it('counts every search, faulted ones too, by licence number or surname, and nothing else', async () => {
      await search(SANDBOX_NUMBERS.active);
      await search(SANDBOX_NUMBERS.active);
      await search(SANDBOX_NUMBERS.fault503);
      await search(SANDBOX_NUMBERS.faultReset).catch(() => undefined);
      await search('');
      await searchByName({ Surname: ' hughes ' });
      await searchByName({ Surname: 'HUGHES', FirstName: 'OLIVIA' });
      await searchByName({ Surname: 'SMITH' });
      await send('GET', '/PublicRegister/');
      await admin('GET', '/__sandbox/fault');

      expect(await admin('GET', '/__sandbox/requests')).toEqual({
        total: 8,
        byLicence: { [SANDBOX_NUMBERS.active]: 2, [SANDBOX_NUMBERS.fault503]: 1, [SANDBOX_NUMBERS.faultReset]: 1 },
        bySurname: { HUGHES: 2, SMITH: 1 },
      });
    });

    it('starts again from zero after DELETE', async () => {
      await search(SANDBOX_NUMBERS.active);

      await searchByName({ Surname: 'HUGHES' });

      expect(await admin('DELETE', '/__sandbox/requests')).toEqual({ total: 0, byLicence: {}, bySurname: {} });
      await search(SANDBOX_NUMBERS.expired);
      expect(await admin('GET', '/__sandbox/requests')).toEqual({
        total: 1,
        byLicence: { [SANDBOX_NUMBERS.expired]: 1 },
        bySurname: {},
      });
    });

    it('records when each search arrived, per number, in order, until DELETE', async () => {
      const before = Date.now();
      await search(SANDBOX_NUMBERS.active);
      await search(SANDBOX_NUMBERS.active);
      const after = Date.now();
      const { byLicence } = (await admin('GET', '/__sandbox/requests/times')) as { byLicence: Record<string, number[]> };
      expect(Object.keys(byLicence)).toEqual([SANDBOX_NUMBERS.active]);
      const [first, second] = byLicence[SANDBOX_NUMBERS.active];
      expect([byLicence[SANDBOX_NUMBERS.active].length, first >= before, second >= first, second <= after]).toEqual([2, true, true, true]);
      await admin('DELETE', '/__sandbox/requests');
      expect(await admin('GET', '/__sandbox/requests/times')).toEqual({ byLicence: {} });
    });
  });

  describe('reserved numbers', () => {
    it.each([
      ['fault503', 503],
      ['fault500', 500],
      ['fault429', 429],
      ['fault404', 404],
    ] as const)('%s answers HTTP %d', async (key, status) => {
      expect((await search(SANDBOX_NUMBERS[key])).status).toBe(status);
    });

    it('faultRedirect answers 302 to /PublicRegister/Error', async () => {
      const answer = await search(SANDBOX_NUMBERS.faultRedirect);

      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe('/PublicRegister/Error');
    });

    it('faultMaintenance answers a maintenance page with status 200', async () => {
      const answer = await search(SANDBOX_NUMBERS.faultMaintenance);

      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<h1>Sorry, the service is unavailable</h1>');
    });

    it('faultTruncated answers 200 with HTML that stops inside a result card', async () => {
      const answer = await search(SANDBOX_NUMBERS.faultTruncated);

      expect(answer.status).toBe(200);
      expect(answer.body).toContain('<div class="container well panel panel-default">');
      expect(answer.body).toContain(SANDBOX_NUMBERS.faultTruncated);
      expect(answer.body).not.toContain('Status');
      expect(answer.body).not.toContain('</html>');
    });

    it('faultOversize answers 200 with a complete HTML page over 3 MiB', async () => {
      const answer = await search(SANDBOX_NUMBERS.faultOversize);

      expect(answer.status).toBe(200);
      expect(Buffer.byteLength(answer.body)).toBeGreaterThan(3 * 1024 * 1024);
      expect(answer.body.trimEnd()).toMatch(/<\/html>$/);
    });

    it('faultReset drops the connection without an answer', async () => {
      await expect(search(SANDBOX_NUMBERS.faultReset)).rejects.toMatchObject({ code: 'ECONNRESET' });
    });

    it('faultHang never answers', async () => {
      await expect(search(SANDBOX_NUMBERS.faultHang, AbortSignal.timeout(200))).rejects.toMatchObject({
        name: 'TimeoutError',
      });
    });
  });

  describe('fault admin API', () => {
    it('reports the faults set, and none after DELETE', async () => {
      await setFault({ fault: 'status-503', latencyMs: 5, latencyMaxMs: 10 });
      const view = await setFault({ fault: 'reset', times: 2, licenceNumber: SANDBOX_NUMBERS.active });

      const expected = {
        global: { fault: 'status-503', latencyMs: 5, latencyMaxMs: 10, remaining: null },
        byLicence: { [SANDBOX_NUMBERS.active]: { fault: 'reset', remaining: 2 } },
      };
      expect(view).toEqual(expected);
      expect(await admin('GET', '/__sandbox/fault')).toEqual(expected);
      expect(await admin('DELETE', '/__sandbox/fault')).toEqual({ global: null, byLicence: {} });
      expect((await search(SANDBOX_NUMBERS.active)).status).toBe(200);
    });

    it('applies a global fault to every number', async () => {
      await setFault({ fault: 'status-500' });

      expect((await search(SANDBOX_NUMBERS.active)).status).toBe(500);
      expect((await search(SANDBOX_NUMBERS.notFound)).status).toBe(500);
    });

    it('applies a per-number fault to that number only, ahead of a global one', async () => {
      await setFault({ fault: 'status-429' });
      await setFault({ fault: 'maintenance', licenceNumber: SANDBOX_NUMBERS.active });

      expect((await search(SANDBOX_NUMBERS.active)).body).toContain('Sorry, the service is unavailable');
      expect((await search(SANDBOX_NUMBERS.expired)).status).toBe(429);
    });

    it('reverts to normal after `times` requests', async () => {
      await setFault({ fault: 'status-503', times: 2 });

      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await search(SANDBOX_NUMBERS.active)).status);

      expect(statuses).toEqual([503, 503, 200]);
      expect(await admin('GET', '/__sandbox/fault')).toEqual({ global: null, byLicence: {} });
    });

    it('lets a run-time fault override a reserved number', async () => {
      await setFault({ fault: 'none', licenceNumber: SANDBOX_NUMBERS.fault503 });

      await expect(outcomeOf(SANDBOX_NUMBERS.fault503)).resolves.toEqual({ kind: 'not_found' });
    });

    it('delays by latencyMs before answering normally', async () => {
      await setFault({ fault: 'none', latencyMs: 150 });
      const started = performance.now();

      await expect(outcomeOf(SANDBOX_NUMBERS.active)).resolves.toMatchObject({ kind: 'found' });

      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    });

    it('delays within [latencyMs, latencyMaxMs] before the fault', async () => {
      await setFault({ fault: 'status-503', latencyMs: 100, latencyMaxMs: 140, licenceNumber: SANDBOX_NUMBERS.active });
      const started = performance.now();

      const answer = await search(SANDBOX_NUMBERS.active);

      const elapsedMs = performance.now() - started;
      expect(answer.status).toBe(503);
      expect(elapsedMs).toBeGreaterThanOrEqual(95);
      expect(elapsedMs).toBeLessThan(400);
    });

    it.each([
      [
        '{"fault":"explode"}',
        'fault must be one of none, status-500, status-503, status-429, status-404, hang, reset, maintenance, truncated, oversize, redirect',
      ],
      ['{"fault":"hang","times":0}', 'times must be at least 1'],
      ['{"fault":"hang","latncyMs":10}', 'unknown field "latncyMs"'],
      ['{"fault":', 'body must be JSON'],
      ['', 'body must be JSON'],
    ])('refuses %j with 400 and leaves the faults alone', async (body, error) => {
      await setFault({ fault: 'status-503', licenceNumber: SANDBOX_NUMBERS.expired });

      const answer = await send('PUT', '/__sandbox/fault', body);

      expect(answer).toMatchObject({ status: 400, body: JSON.stringify({ error }) });
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(await admin('GET', '/__sandbox/fault')).toEqual({
        global: null,
        byLicence: { [SANDBOX_NUMBERS.expired]: { fault: 'status-503', remaining: null } },
      });
    });
  });

  describe('page shapes', () => {
    it('serves every answer in a shape of the fixtures: the register watch takes none of them for news', async () => {
      const numbers = [
        ...FOUND_SANDBOX_NUMBERS,
        ...['tooMany', 'twoCards', 'notFound', 'faultMaintenance'].map((name) => SANDBOX_NUMBERS[name as keyof typeof SANDBOX_NUMBERS]),
      ];
      const pages = [
        ...(await Promise.all(numbers.map((licenceNumber) => search(licenceNumber)))),
        ...(await Promise.all(['HUGHES', 'SMITH', 'NOBODY'].map((Surname) => searchByName({ Surname })))),
      ];

      expect(pages).toHaveLength(FOUND_SANDBOX_NUMBERS.length + 7);
      for (const page of pages) expect(page.status).toBe(200);
      for (const page of pages) expect(KNOWN_PAGE_SHAPES).toContain(pageShape(page.body));
    });

    it('serves cards with an extra labelled field and a wrapper class after PUT /__sandbox/page-variant, still parsed, in a new shape', async () => {
      const variant = { field: { label: 'Licence category', value: 'Premium' }, wrapperClass: 'result-v2' };
      expect(await admin('PUT', '/__sandbox/page-variant', variant)).toEqual(variant);
      expect(await admin('GET', '/__sandbox/page-variant')).toEqual(variant);

      const answer = await search(SANDBOX_NUMBERS.active);
      expect(answer.body).toContain('<span class="ax_paragraph">Licence category</span>');
      expect(answer.body).toContain('<div class="result-v2">');
      expect(parseRegisterPage(answer.body, SANDBOX_NUMBERS.active)).toEqual({ kind: 'found', licence: SANDBOX_LICENCES.active });
      expect(KNOWN_PAGE_SHAPES).not.toContain(pageShape(answer.body));
      expect(parseNameSearchPage((await searchByName({ Surname: 'HUGHES' })).body)).toMatchObject({ kind: 'found' });

      expect(await admin('DELETE', '/__sandbox/page-variant')).toEqual({});
      expect(KNOWN_PAGE_SHAPES).toContain(pageShape((await search(SANDBOX_NUMBERS.active)).body));
    });

    it.each([
      ['a field without a label', { field: { label: ' ', value: 'x' } }],
      ['a wrapper class that is not one class', { wrapperClass: 'a b' }],
      ['an unknown key', { colour: 'red' }],
      ['no object', [1]],
    ])('refuses %s with 400', async (_, body) => {
      const answer = await send('PUT', '/__sandbox/page-variant', JSON.stringify(body));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/^\{"error":"page variant: /);
    });
  });

  describe('search by name', () => {
    it('answers with a 200 HTML page holding every card of the holder, and never a date of birth', async () => {
      const answer = await searchByName({ Surname: 'HUGHES', FirstName: 'OLIVIA', DateOfBirth: '12/04/1990' });

      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(parseNameSearchPage(answer.body)).toEqual({
        kind: 'found',
        licences: [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew],
      });
      expect(answer.body).not.toMatch(/1990|Date of birth/i);
    });

    it.each([
      ['an unknown surname', { Surname: 'NOBODY' }, { kind: 'not_found' }],
      ['no surname', { FirstName: 'OLIVIA' }, { kind: 'not_found' }],
      ['a wrong date of birth', { Surname: 'HUGHES', DateOfBirth: '13/04/1990' }, { kind: 'not_found' }],
      ['the too-common surname', { Surname: 'SMITH' }, { kind: 'too_many_results' }],
    ])('answers %s with the matching page', async (_, fields, outcome) => {
      const answer = await searchByName(fields);

      expect(answer.status).toBe(200);
      expect(parseNameSearchPage(answer.body)).toEqual(outcome);
    });

    it('takes a fault set for every number, and not one set for a single number', async () => {
      await setFault({ fault: 'status-503', licenceNumber: SANDBOX_NUMBERS.active });
      expect((await searchByName({ Surname: 'DOE' })).status).toBe(200);

      await setFault({ fault: 'status-503', times: 1 });
      expect((await searchByName({ Surname: 'DOE' })).status).toBe(503);
      expect((await searchByName({ Surname: 'DOE' })).status).toBe(200);
    });
  });

  describe('adding licences', () => {
    const addLicence = (body: unknown) => send('POST', '/__sandbox/licences', JSON.stringify(body));
    const newLicence = {
      licenceNumber: '1285667788990022',
      firstName: 'ZOE',
      surname: 'QUINN',
      dateOfBirth: '2001-09-17',
      role: 'Front Line',
      licenceSector: 'Door Supervision',
      expiryDate: '2029-09-17',
      status: 'Active',
    };

    it('adds a person: answered 201 with the card, found by number and by name with the date of birth', async () => {
      const answer = await addLicence(newLicence);

      expect(answer.status).toBe(201);
      const card = { ...newLicence, middleName: null, statusReason: null, additionalConditions: null };
      expect(JSON.parse(answer.body)).toEqual({ licenceNumber: newLicence.licenceNumber, cards: [card] });
      const shown = shownOnCard(card);
      await expect(outcomeOf(newLicence.licenceNumber)).resolves.toEqual({ kind: 'found', licence: shown });
      const byName = await searchByName({ Surname: 'QUINN', FirstName: 'ZOE', DateOfBirth: '17/09/2001' });
      expect(parseNameSearchPage(byName.body)).toEqual({ kind: 'found', licences: [shown] });
    });

    it.each([
      ['a number in use', SANDBOX_NUMBERS.active],
      ['a too-many number', SANDBOX_NUMBERS.tooMany],
      ['a fault number', SANDBOX_NUMBERS.fault503],
    ])('refuses %s with 409', async (_, licenceNumber) => {
      const answer = await addLicence({ ...newLicence, licenceNumber });

      expect(answer.status).toBe(409);
      expect(JSON.parse(answer.body)).toEqual({ error: `licence number ${licenceNumber} is already in use` });
    });

    it.each([
      [{ ...newLicence, licenceNumber: '1285667788990023', surname: ' ' }, 'body.surname must be a non-empty string'],
      [{ ...newLicence, licenceNumber: '1285667788990023', dateOfBirth: '17/09/2001' }, 'body.dateOfBirth must be a YYYY-MM-DD date'],
      [{ ...newLicence, licenceNumber: '12' }, 'body.licenceNumber must be 16 digits'],
      [[newLicence], 'body must be an object'],
    ])('refuses %j with 400', async (body, error) => {
      const answer = await addLicence(body);

      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error });
    });
  });

  describe('licence admin API', () => {
    const changeLicence = (licenceNumber: string, body: unknown) => send('PUT', `/__sandbox/licences/${licenceNumber}`, JSON.stringify(body));

    afterAll(async () => {
      // Back as shipped for the rest of the suite.
      await changeLicence(SANDBOX_NUMBERS.withConditions, { status: 'Active', expiryDate: '2027-09-09' });
    });

    it('changes a licence at run time: the next search shows the new status and expiry date', async () => {
      const answer = await changeLicence(SANDBOX_NUMBERS.withConditions, { status: 'Revoked', expiryDate: '2026-12-01' });

      expect(answer.status).toBe(200);
      await expect(outcomeOf(SANDBOX_NUMBERS.withConditions)).resolves.toMatchObject({
        kind: 'found',
        licence: { status: 'Revoked', expiryDate: '2026-12-01' },
      });
    });

    it('refuses a bad change with 400, and a number without a licence with 404', async () => {
      expect((await changeLicence(SANDBOX_NUMBERS.active, { expiryDate: 'soon' })).body).toBe(
        JSON.stringify({ error: 'expiryDate must be a YYYY-MM-DD date' }),
      );
      expect((await changeLicence(SANDBOX_NUMBERS.notFound, { status: 'Active' })).status).toBe(404);
      await expect(outcomeOf(SANDBOX_NUMBERS.active)).resolves.toMatchObject({ licence: { expiryDate: '2027-06-06' } });
    });
  });

  describe('licence removal', () => {
    it('removes a licence: the number is then not found', async () => {
      const own = await startSandbox({ port: 0 });
      try {
        const response = await request(`${own.url}/__sandbox/licences/${SANDBOX_NUMBERS.active}`, {
          method: 'PUT',
          body: JSON.stringify({ removed: true }),
          dispatcher: agent,
        });
        expect(response.statusCode).toBe(200);
        await response.body.dump();
        const page = await request(`${own.url}${SEARCH_PATH}`, {
          method: 'POST',
          body: new URLSearchParams({ LicenseNo: SANDBOX_NUMBERS.active }).toString(),
          dispatcher: agent,
        });
        expect(parseRegisterPage(await page.body.text(), SANDBOX_NUMBERS.active)).toEqual({ kind: 'not_found' });
      } finally {
        await own.close();
      }
    });
  });
});

describe('register sandbox lifecycle', () => {
  it('closes promptly with a hanging request and an idle keep-alive connection open', async () => {
    const sandbox = await startSandbox();
    const agent = new Agent();
    try {
      const idle = await request(`${sandbox.url}/PublicRegister/`, { dispatcher: agent });
      await idle.body.text();
      const hanging = request(`${sandbox.url}${SEARCH_PATH}`, {
        method: 'POST',
        body: `LicenseNo=${SANDBOX_NUMBERS.faultHang}`,
        dispatcher: agent,
      });
      const hangingOutcome = hanging.then(
        () => 'answered',
        () => 'dropped',
      );
      await waitFor(async () => (await countsOf(sandbox)).total === 1);
      const started = performance.now();

      await sandbox.close();

      expect(performance.now() - started).toBeLessThan(500);
      await expect(hangingOutcome).resolves.toBe('dropped');
    } finally {
      await agent.close();
    }
  });

  it('closes promptly while a latency delay is pending', async () => {
    const sandbox = await startSandbox();
    await fetch(`${sandbox.url}/__sandbox/fault`, { method: 'PUT', body: '{"fault":"none","latencyMs":60000}' });
    const slow = fetch(`${sandbox.url}${SEARCH_PATH}`, { method: 'POST', body: `LicenseNo=${SANDBOX_NUMBERS.active}` }).catch(() => 'dropped');
    await waitFor(async () => (await countsOf(sandbox)).total === 1);
    const started = performance.now();

    await sandbox.close();

    expect(performance.now() - started).toBeLessThan(500);
    await expect(slow).resolves.toBe('dropped');
  });

  it('serves the data file it is given', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'register-sandbox-'));
    const dataFile = join(directory, 'licences.json');
    const licence = {
      licenceNumber: '1234567812345678',
      firstName: 'ANA',
      surname: 'LIMA',
      role: 'Front Line',
      licenceSector: 'Key Holding',
      expiryDate: '2027-02-28',
      status: 'Active',
      statusReason: null,
      additionalConditions: null,
    };
    writeFileSync(dataFile, JSON.stringify({ licences: [licence], tooManyResults: [], faults: {} }));
    const sandbox = await startSandbox({ dataFile });
    try {
      const page = await (await fetch(`${sandbox.url}${SEARCH_PATH}`, { method: 'POST', body: 'LicenseNo=1234567812345678' })).text();
      expect(parseRegisterPage(page, '1234567812345678')).toEqual({
        kind: 'found',
        licence: { ...licence, dateOfBirth: null, licenceType: null },
      });
    } finally {
      await sandbox.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses to start on an invalid data file', async () => {
    await expect(startSandbox({ dataFile: join(__dirname, 'render-page.ts') })).rejects.toThrow(/^Sandbox data in .*render-page\.ts is invalid: /);
  });
});

async function countsOf(sandbox: RunningSandbox): Promise<{ total: number }> {
  return (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { total: number };
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await condition()) return;
    await sleep(10);
  }
  throw new Error('condition not met within 1 s');
}
