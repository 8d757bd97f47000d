import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { RegisterClient } from './register-client';
import { RegisterParseError } from './register-errors';

// The client against a bare node:http server that records what it receives. The client's
// behaviour against every register outcome and fault is covered with the sandbox, in
// libs/register-sandbox/src/sandbox-server.register-client.spec.ts.

const FOUND_ACTIVE_PAGE = readFileSync(join(__dirname, '..', 'fixtures', 'found-active.html'), 'utf8');
const NAME_TWO_LICENCES_PAGE = readFileSync(join(__dirname, '..', 'fixtures', 'name-two-licences.html'), 'utf8');
const LICENCE_NUMBER = '1011001544208079';

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('RegisterClient', () => {
  let server: Server;
  let baseUrl: string;
  let received: ReceivedRequest[];
  let answer: { contentType: string; body: string };
  let client: RegisterClient | undefined;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const { method, url, headers } = request;
        received.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': answer.contentType });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    received = [];
    answer = { contentType: 'text/html; charset=utf-8', body: FOUND_ACTIVE_PAGE };
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends one browser-like form POST to the search path', async () => {
    client = new RegisterClient({ baseUrl });

    await expect(client.lookup(LICENCE_NUMBER)).resolves.toMatchObject({ kind: 'found' });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/PublicRegister/SearchPublicRegisterByLicence');
    expect(request.body).toBe(`LicenseNo=${LICENCE_NUMBER}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.accept).toBe('text/html,application/xhtml+xml');
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(.+\) .*Chrome\/\d+/);
  });

  it('appends the search path to a base URL with a path and a trailing slash, and sends the given user agent', async () => {
    client = new RegisterClient({ baseUrl: `${baseUrl}/mirror/`, userAgent: 'LicenceChecker/1.0' });

    await client.lookup(LICENCE_NUMBER);

    expect(received.map(({ url, headers }) => [url, headers['user-agent']])).toEqual([
      ['/mirror/PublicRegister/SearchPublicRegisterByLicence', 'LicenceChecker/1.0'],
    ]);
  });

  it('sends a name search as one browser-like form POST to the surname search path, with all six fields', async () => {
    client = new RegisterClient({ baseUrl: `${baseUrl}/mirror/` });
    answer = { contentType: 'text/html', body: NAME_TWO_LICENCES_PAGE };

    const outcome = await client.searchByName({ surname: 'HUGHES', firstName: 'OLIVIA', dateOfBirth: '1990-04-12' });

    expect(outcome.kind === 'found' && outcome.licences.map(({ licenceNumber }) => licenceNumber)).toEqual(['1229001122334455', '1230112233445500']);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/mirror/PublicRegister/SearchPublicRegisterBySurname');
    expect(request.body).toBe('Surname=HUGHES&FirstName=OLIVIA&MiddleName=&DateOfBirth=12%2F04%2F1990&Role=&LicenseSector=');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.accept).toBe('text/html,application/xhtml+xml');
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(.+\) .*Chrome\/\d+/);
  });

  it('sends no name search for a blank surname or an unreadable date of birth', async () => {
    client = new RegisterClient({ baseUrl });

    await expect(client.searchByName({ surname: ' ' })).rejects.toThrow(new TypeError('A name search needs a surname'));
    await expect(client.searchByName({ surname: 'DOE', dateOfBirth: '12/04/1990' })).rejects.toThrow(
      new TypeError('A name search date of birth must be a YYYY-MM-DD date'),
    );
    expect(received).toHaveLength(0);
  });

  it('is a parse error, status 200, for a name search answered with a page it cannot read', async () => {
    client = new RegisterClient({ baseUrl });
    answer = { contentType: 'text/html', body: '<h1>Please complete the security check</h1>' };

    const error: unknown = await client.searchByName({ surname: 'DOE' }).catch((rejection: unknown) => rejection);

    expect(error).toBeInstanceOf(RegisterParseError);
    expect(error).toMatchObject({
      message: 'Register page has neither a result card nor a known message',
      httpStatus: 200,
      excerpt: '<h1>Please complete the security check</h1>',
    });
  });

  it('gives every page read to onPage before parsing it, one the parser cannot read too', async () => {
    client = new RegisterClient({ baseUrl });
    const pages: string[] = [];
    const onPage = (page: string) => pages.push(page);

    await expect(client.lookup(LICENCE_NUMBER, { onPage })).resolves.toMatchObject({ kind: 'found' });
    answer = { contentType: 'text/html', body: '<html><body><p>Down for maintenance</p></body></html>' };
    await expect(client.searchByName({ surname: 'DOE' }, { onPage })).rejects.toBeInstanceOf(RegisterParseError);
    answer = { contentType: 'application/json', body: '{}' };
    await expect(client.lookup(LICENCE_NUMBER, { onPage })).rejects.toBeInstanceOf(RegisterParseError);

    expect(pages).toEqual([FOUND_ACTIVE_PAGE, '<html><body><p>Down for maintenance</p></body></html>']);
  });

  it('form-encodes the licence number as given', async () => {
    client = new RegisterClient({ baseUrl });
    answer = { contentType: 'text/html', body: '<p>Unfortunately we found no licences</p>' };

    await expect(client.lookup('1011 0015&x=1')).resolves.toEqual({ kind: 'not_found' });

    expect(received.map(({ body }) => body)).toEqual(['LicenseNo=1011+0015%26x%3D1']);
  });

  it('accepts an XHTML content type', async () => {
    client = new RegisterClient({ baseUrl });
    answer = { contentType: 'application/xhtml+xml', body: FOUND_ACTIVE_PAGE };

    await expect(client.lookup(LICENCE_NUMBER)).resolves.toMatchObject({ kind: 'found' });
  });

  it.each(['application/json', 'text/plain'])('is a parse error, status 200, for a %s answer', async (contentType) => {
    client = new RegisterClient({ baseUrl });
    answer = { contentType, body: '{"error":"Unfortunately we found no licences"}' };

    const error: unknown = await client.lookup(LICENCE_NUMBER).catch((rejection: unknown) => rejection);

    expect(error).toBeInstanceOf(RegisterParseError);
    expect(error).toMatchObject({
      message: `Register answered non-HTML content "${contentType}"`,
      httpStatus: 200,
      excerpt: '{"error":"Unfortunately we found no licences"}',
    });
  });

  it('rejects with the abort reason, sending nothing, when the signal is already aborted', async () => {
    client = new RegisterClient({ baseUrl });
    const reason = new Error('shutting down');

    await expect(client.lookup(LICENCE_NUMBER, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(received).toHaveLength(0);
  });

  it.each([
    [{ baseUrl: 'not a url' }, TypeError, 'RegisterClientOptions.baseUrl must be an http(s) URL'],
    [{ baseUrl: 'ftp://register.example' }, TypeError, 'RegisterClientOptions.baseUrl must be an http(s) URL'],
    [{ baseUrl: 'http://x', requestTimeoutMs: 0 }, RangeError, 'RegisterClientOptions.requestTimeoutMs must be a positive integer'],
    [{ baseUrl: 'http://x', maxResponseBytes: 1.5 }, RangeError, 'RegisterClientOptions.maxResponseBytes must be a positive integer'],
    [{ baseUrl: 'http://x', maxConnections: -1 }, RangeError, 'RegisterClientOptions.maxConnections must be a positive integer'],
  ])('refuses the options %j', (options, errorClass, message) => {
    expect(() => new RegisterClient(options)).toThrow(errorClass);
    expect(() => new RegisterClient(options)).toThrow(message);
  });
});
