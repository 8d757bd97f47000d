import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RegisterClient, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from '@lvs/register';
import type { LookupOutcome } from '@lvs/register';
import { loadSandboxData } from '@lvs/test-register';
import { SANDBOX_LICENCES, shownOnCard } from '@lvs/test-register';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { startSandbox } from './sandbox-server';
import type { RequestCounts, RunningSandbox } from './sandbox-server';

// The register client against the sandbox over real HTTP: every outcome, every fault.

const REQUEST_TIMEOUT_MS = 300;

describe('RegisterClient against the sandbox', () => {
  let sandbox: RunningSandbox;
  let client: RegisterClient;

  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  const requestCounts = async (): Promise<RequestCounts> => (await admin('GET', '/__sandbox/requests')) as RequestCounts;
  const lookupFailure = (licenceNumber: string, signal?: AbortSignal): Promise<unknown> =>
    client.lookup(licenceNumber, { signal }).then(
      (outcome: LookupOutcome) => {
        throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`);
      },
      (error: unknown) => error,
    );

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new RegisterClient({ baseUrl: sandbox.url, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  });

  beforeEach(async () => {
    await admin('DELETE', '/__sandbox/fault');
    await admin('DELETE', '/__sandbox/requests');
  });

  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  describe('outcomes, one request each', () => {
    it('finds an active licence', async () => {
      await expect(client.lookup(SANDBOX_NUMBERS.active)).resolves.toEqual({ kind: 'found', licence: SANDBOX_LICENCES.active });
      expect(await requestCounts()).toEqual({ total: 1, byLicence: { [SANDBOX_NUMBERS.active]: 1 }, bySurname: {} });
    });

    it('finds an expired non-front-line licence with an empty sector and an apostrophe in the surname', async () => {
      await expect(client.lookup(SANDBOX_NUMBERS.expired)).resolves.toEqual({ kind: 'found', licence: SANDBOX_LICENCES.expired });
    });

    it('finds a licence with a status reason and conditions holding escaped characters', async () => {
      await expect(client.lookup(SANDBOX_NUMBERS.withConditions)).resolves.toEqual({
        kind: 'found',
        licence: {
          licenceNumber: SANDBOX_NUMBERS.withConditions,
          firstName: 'ANNA-MARIE',
          surname: "D'ARCY",
          dateOfBirth: null,
          licenceType: null,
          role: 'Front Line',
          licenceSector: 'Key Holding',
          expiryDate: '2027-09-09',
          status: 'Active',
          statusReason: 'Licence granted with conditions',
          additionalConditions: 'Must not work between 23:00 & 06:00 without a supervisor present; licence to be shown on request',
        },
      });
    });

    it('reads every licence of the shipped data set back exactly', async () => {
      const data = await loadSandboxData();
      for (const [licenceNumber, licences] of data.licencesByNumber) {
        if (licences.length !== 1) continue;
        await expect(client.lookup(licenceNumber)).resolves.toEqual({
          kind: 'found',
          licence: shownOnCard(licences[0]),
        });
      }
      const counts = await requestCounts();
      expect(counts.total).toBe(Object.keys(counts.byLicence).length);
      expect(counts.total).toBeGreaterThanOrEqual(20);
    });

    it.each([
      ['notFound', { kind: 'not_found' }],
      ['tooMany', { kind: 'too_many_results' }],
      ['twoCards', { kind: 'too_many_results' }],
    ] as const)('answers %s with %j', async (key, outcome) => {
      await expect(client.lookup(SANDBOX_NUMBERS[key])).resolves.toEqual(outcome);
      expect(await requestCounts()).toEqual({ total: 1, byLicence: { [SANDBOX_NUMBERS[key]]: 1 }, bySurname: {} });
    });
  });

  describe('faults, one request each', () => {
    it.each([
      { key: 'fault503', errorClass: RegisterUnavailableError, httpStatus: 503, message: 'Register answered HTTP 503' },
      { key: 'fault500', errorClass: RegisterUnavailableError, httpStatus: 500, message: 'Register answered HTTP 500' },
      { key: 'fault429', errorClass: RegisterUnavailableError, httpStatus: 429, message: 'Register answered HTTP 429' },
      { key: 'fault404', errorClass: RegisterParseError, httpStatus: 404, message: 'Register answered HTTP 404' },
      { key: 'faultRedirect', errorClass: RegisterParseError, httpStatus: 302, message: 'Register answered HTTP 302' },
      {
        key: 'faultMaintenance',
        errorClass: RegisterParseError,
        httpStatus: 200,
        message: 'Register page has neither a result card nor a known message',
      },
      { key: 'faultTruncated', errorClass: RegisterParseError, httpStatus: 200, message: 'Register result card has no "role"' },
      {
        key: 'faultOversize',
        errorClass: RegisterParseError,
        httpStatus: 200,
        message: 'Register page is larger than 2097152 bytes',
      },
    ] as const)('$key: $errorClass.name, status $httpStatus', async ({ key, errorClass, httpStatus, message }) => {
      const licenceNumber = SANDBOX_NUMBERS[key];

      const error = await lookupFailure(licenceNumber);

      expect(error).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ httpStatus, message });
      expect(await requestCounts()).toEqual({ total: 1, byLicence: { [licenceNumber]: 1 }, bySurname: {} });
    });

    it('gives error pages an excerpt for the logs, never the licence number in the message', async () => {
      const error = await lookupFailure(SANDBOX_NUMBERS.fault503);

      expect(error).toMatchObject({
        excerpt: '<!DOCTYPE html> <html><head><title>Service unavailable</title></head><body><h1>Service unavailable</h1></body></html>',
      });
      expect((error as Error).message).not.toContain(SANDBOX_NUMBERS.fault503);
    });

    it('faultReset: unreachable, the connection reset, naming the host', async () => {
      const error = await lookupFailure(SANDBOX_NUMBERS.faultReset);

      expect(error).toBeInstanceOf(RegisterUnreachableError);
      expect(error).toMatchObject({
        httpStatus: null,
        reason: 'connection reset',
        message: `Register ${new URL(sandbox.url).host} unreachable: connection reset (ECONNRESET)`,
      });
    });

    it('gives up on a register that never answers once requestTimeoutMs has passed', async () => {
      const started = performance.now();

      const error = await lookupFailure(SANDBOX_NUMBERS.faultHang);

      const elapsedMs = performance.now() - started;
      expect(error).toBeInstanceOf(RegisterUnreachableError);
      expect(error).toMatchObject({
        httpStatus: null,
        reason: 'timeout',
        message: `Register ${new URL(sandbox.url).host} unreachable: timeout (no answer within ${REQUEST_TIMEOUT_MS} ms)`,
      });
      expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 5);
      expect(elapsedMs).toBeLessThan(1500);
      expect(await requestCounts()).toEqual({ total: 1, byLicence: { [SANDBOX_NUMBERS.faultHang]: 1 }, bySurname: {} });
    });

    it('gives up on a register slower than requestTimeoutMs', async () => {
      await admin('PUT', '/__sandbox/fault', { fault: 'none', latencyMs: 2000 });

      const error = await lookupFailure(SANDBOX_NUMBERS.active);

      expect(error).toBeInstanceOf(RegisterUnavailableError);
      expect(error).toMatchObject({ httpStatus: null });
    });

    it('is unreachable, the connection refused, when nothing listens on the port', async () => {
      const port = await closedPort();
      const closedPortClient = new RegisterClient({ baseUrl: `http://127.0.0.1:${port}` });
      try {
        const error: unknown = await closedPortClient.lookup(SANDBOX_NUMBERS.active).catch((rejection: unknown) => rejection);

        expect(error).toBeInstanceOf(RegisterUnreachableError);
        expect(error).toBeInstanceOf(RegisterUnavailableError); // retried like any unavailability
        expect(error).toMatchObject({
          httpStatus: null,
          host: `127.0.0.1:${port}`,
          reason: 'connection refused',
          message: `Register 127.0.0.1:${port} unreachable: connection refused (ECONNREFUSED)`,
        });
      } finally {
        await closedPortClient.close();
      }
    });

    it('is unreachable, a DNS failure, when the host name resolves nowhere (.invalid, RFC 2606)', async () => {
      const nowhereClient = new RegisterClient({ baseUrl: 'http://lvs-register.invalid' });
      try {
        const error: unknown = await nowhereClient.lookup(SANDBOX_NUMBERS.active).catch((rejection: unknown) => rejection);

        expect(error).toBeInstanceOf(RegisterUnreachableError);
        expect(error).toMatchObject({
          httpStatus: null,
          host: 'lvs-register.invalid',
          reason: 'DNS failure',
          message: 'Register lvs-register.invalid unreachable: DNS failure (ENOTFOUND)',
        });
      } finally {
        await nowhereClient.close();
      }
    });

    it('reports each failure and then the recovery when the register fails twice', async () => {
      await admin('PUT', '/__sandbox/fault', { fault: 'status-503', times: 2, licenceNumber: SANDBOX_NUMBERS.active });

      expect(await lookupFailure(SANDBOX_NUMBERS.active)).toBeInstanceOf(RegisterUnavailableError);
      expect(await lookupFailure(SANDBOX_NUMBERS.active)).toBeInstanceOf(RegisterUnavailableError);
      await expect(client.lookup(SANDBOX_NUMBERS.active)).resolves.toMatchObject({ kind: 'found' });
      expect(await requestCounts()).toEqual({ total: 3, byLicence: { [SANDBOX_NUMBERS.active]: 3 }, bySurname: {} });
    });
  });

  describe('search by name, one request each', () => {
    const onlyHughes = { total: 1, byLicence: {}, bySurname: { HUGHES: 1 } };

    it('finds both licences of a holder with an old and a new one', async () => {
      await expect(client.searchByName({ surname: 'Hughes', firstName: 'Olivia' })).resolves.toEqual({
        kind: 'found',
        licences: [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew],
      });
      expect(await requestCounts()).toEqual(onlyHughes);
    });

    it('finds a Replaced card and its Active successor, narrowed by middle name, role and sector', async () => {
      const outcome = await client.searchByName({
        surname: 'EVANS',
        firstName: 'DANIEL',
        middleName: 'ROBERT',
        role: 'Front Line',
        licenceSector: 'Security Guarding',
      });

      expect(outcome.kind === 'found' && outcome.licences.map(({ licenceNumber, status }) => [licenceNumber, status])).toEqual([
        [SANDBOX_NUMBERS.replacedOld, 'Replaced'],
        [SANDBOX_NUMBERS.replacedNew, 'Active'],
      ]);
      expect(await requestCounts()).toEqual({ total: 1, byLicence: {}, bySurname: { EVANS: 1 } });
    });

    it('confirms the right date of birth: the same two licences, their cards showing no date', async () => {
      await expect(client.searchByName({ surname: 'HUGHES', firstName: 'OLIVIA', dateOfBirth: '1990-04-12' })).resolves.toEqual({
        kind: 'found',
        licences: [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew],
      });
      expect(await requestCounts()).toEqual(onlyHughes);
    });

    it('does not confirm a wrong date of birth: not found', async () => {
      await expect(client.searchByName({ surname: 'HUGHES', firstName: 'OLIVIA', dateOfBirth: '1990-12-04' })).resolves.toEqual({
        kind: 'not_found',
      });
      expect(await requestCounts()).toEqual(onlyHughes);
    });

    it('answers an unknown name with not found', async () => {
      await expect(client.searchByName({ surname: 'NOBODY', firstName: 'JANE' })).resolves.toEqual({ kind: 'not_found' });
      expect(await requestCounts()).toEqual({ total: 1, byLicence: {}, bySurname: { NOBODY: 1 } });
    });

    it('answers the too-common surname with too many results, even with a first name and date of birth', async () => {
      await expect(client.searchByName({ surname: 'SMITH', firstName: 'WILLIAM', dateOfBirth: '1979-01-20' })).resolves.toEqual({
        kind: 'too_many_results',
      });
      expect(await requestCounts()).toEqual({ total: 1, byLicence: {}, bySurname: { SMITH: 1 } });
    });

    it('rejects as unavailable while the register fails every search, then finds again', async () => {
      await admin('PUT', '/__sandbox/fault', { fault: 'status-503', times: 1 });

      const error: unknown = await client.searchByName({ surname: 'HUGHES' }).catch((rejection: unknown) => rejection);

      expect(error).toBeInstanceOf(RegisterUnavailableError);
      expect(error).toMatchObject({ httpStatus: 503, message: 'Register answered HTTP 503' });
      await expect(client.searchByName({ surname: 'HUGHES' })).resolves.toMatchObject({ kind: 'found' });
      expect(await requestCounts()).toEqual({ total: 2, byLicence: {}, bySurname: { HUGHES: 2 } });
    });

    it("finds a licence added at run time, and its holder's other licence beside it", async () => {
      const successor = {
        ...SANDBOX_LICENCES.active,
        licenceNumber: '1274556677889911',
        licenceSector: 'Security Guarding',
        expiryDate: '2029-06-06',
      };
      const added = await fetch(`${sandbox.url}/__sandbox/licences`, {
        method: 'POST',
        body: JSON.stringify({ ...successor, dateOfBirth: '1988-07-15', licenceType: undefined }),
      });
      expect(added.status).toBe(201);

      await expect(client.searchByName({ surname: 'DOE', firstName: 'JANE', dateOfBirth: '1988-07-15' })).resolves.toEqual({
        kind: 'found',
        licences: [SANDBOX_LICENCES.active, successor],
      });
      await expect(client.lookup(successor.licenceNumber)).resolves.toEqual({ kind: 'found', licence: successor });
    });
  });

  describe("the caller's signal", () => {
    it('rejects with the abort reason, not as a register error', async () => {
      const controller = new AbortController();
      const reason = new Error('worker shutting down');
      setTimeout(() => controller.abort(reason), 50);
      const started = performance.now();

      const error = await lookupFailure(SANDBOX_NUMBERS.faultHang, controller.signal);

      expect(error).toBe(reason);
      expect(performance.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
      expect(await requestCounts()).toEqual({ total: 1, byLicence: { [SANDBOX_NUMBERS.faultHang]: 1 }, bySurname: {} });
    });

    it('leaves a lookup alone when it is not aborted', async () => {
      const controller = new AbortController();

      await expect(client.lookup(SANDBOX_NUMBERS.active, { signal: controller.signal })).resolves.toMatchObject({
        kind: 'found',
      });
      controller.abort();
    });
  });
});

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
