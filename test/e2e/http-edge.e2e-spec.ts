import { request } from '../support/http';
import { exchangeRaw, parseRawAnswers, RawAnswer, sendRaw } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';

const VALID_NUMBER = '1011001544208079';
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
const NOT_HTTP = { code: 'VALIDATION_ERROR', message: 'Request is not valid HTTP' };
const REQUEST_BODY_TIMEOUT_MS = 3000;
const REQUEST_HEADERS_TIMEOUT_MS = 2000;

/** The one answer in a raw exchange, which must be complete. */
function onlyAnswer(received: string): RawAnswer {
  const { answers, complete } = parseRawAnswers(received);
  expect(complete).toBe(true);
  expect(answers).toHaveLength(1);
  return answers[0];
}

describe('the HTTP edge: malformed HTTP, hostile bodies, slow clients, security headers', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        REQUEST_BODY_TIMEOUT_MS: String(REQUEST_BODY_TIMEOUT_MS),
        REQUEST_HEADERS_TIMEOUT_MS: String(REQUEST_HEADERS_TIMEOUT_MS),
      },
    });
    apiKey = (await t.createKey({ quota: 10 })).key;
  });
  afterAll(() => t.close());

  const postVerify = (body: string, key = apiKey) =>
    request(t.baseUrl, 'POST', '/v1/licences/verify', {
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body,
    });

  async function expectNoCharge(): Promise<void> {
    const charges = await t.db.query('SELECT count(*)::int AS n FROM quota_charges');
    expect(charges.rows[0].n).toBe(0);
  }

  describe('bodies', () => {
    it('answers a body of arrays 1,500 deep (3 KB) with 400 "nested too deeply", not a stack overflow', async () => {
      const body = `{"licenceNumber":"${VALID_NUMBER}","a":${'['.repeat(1500)}${']'.repeat(1500)}}`;
      expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024);
      const response = await postVerify(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Request body is nested too deeply' });
      await expectNoCharge();
    });

    it('answers a depth bomb with a bad key 401: the key is checked first', async () => {
      const response = await postVerify(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'lvs_unknown');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    });

    it.each(['constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__proto__', 'isPrototypeOf'])(
      'answers %s beside licenceNumber with 400 "may only contain licenceNumber"',
      async (name) => {
        const response = await postVerify(`{"licenceNumber":"${VALID_NUMBER}","${name}":"x"}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Request body may only contain licenceNumber' });
        await expectNoCharge();
      },
    );

    it('answers an object-valued __proto__ the same, and the process stays unpolluted', async () => {
      const response = await postVerify(`{"licenceNumber":"${VALID_NUMBER}","__proto__":{"licenceNumber":"x","polluted":true}}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Request body may only contain licenceNumber' });
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    });

    it('answers a body over 1 MiB with a bad key 401, and with a good key 400 "must not exceed 16 KiB"', async () => {
      const body = JSON.stringify({ licenceNumber: VALID_NUMBER, pad: 'x'.repeat(2 * 1024 * 1024) });
      const badKey = await postVerify(body, 'lvs_unknown');
      expect(badKey.status).toBe(401);
      expect(badKey.body).toEqual(UNAUTHORIZED);
      const goodKey = await postVerify(body);
      expect(goodKey.status).toBe(400);
      expect(goodKey.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Request body must not exceed 16 KiB' });
      await expectNoCharge();
    });

    describe.each([
      ['chunked, of no announced length', 'Transfer-Encoding: chunked', (bytes: string) => `${bytes.length.toString(16)}\r\n${bytes}\r\n`],
      ['of an announced length of 1 MiB', `Content-Length: ${1024 * 1024}`, (bytes: string) => bytes],
    ])('a body %s, sent slowly past the 16 KiB cap', (_name, framing, frame) => {
      /**
       * Sends the headers and 17 KiB at once, then a byte every 200 ms, as long as the socket lasts: the answer and
       * the end of the connection must come long before the rest (and before the 3 s body deadline).
       */
      async function sendOversized(key: string) {
        let dripping: NodeJS.Timeout | undefined;
        const exchange = await exchangeRaw(
          t.baseUrl,
          (socket) => {
            socket.write(`POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
            socket.write(frame(`{"pad":"${'x'.repeat(17 * 1024)}`));
            dripping = setInterval(() => socket.writable && socket.write(frame('x')), 200);
          },
          { waitMs: REQUEST_BODY_TIMEOUT_MS + 2000, untilClosed: true },
        );
        clearInterval(dripping);
        return { answer: onlyAnswer(exchange.received), closedAfterMs: exchange.closedAfterMs };
      }

      it('is answered 400 "must not exceed 16 KiB" at once, and its connection closed', async () => {
        const { answer, closedAfterMs } = await sendOversized(apiKey);
        expect({ status: answer.status, body: JSON.parse(answer.body), connection: answer.headers.connection }).toEqual({
          status: 400,
          body: { code: 'VALIDATION_ERROR', message: 'Request body must not exceed 16 KiB' },
          connection: 'close',
        });
        expect(closedAfterMs).not.toBeNull();
        expect(closedAfterMs).toBeLessThan(1000);
        await expectNoCharge();
      });

      it('is answered 401 at once with a bad key, the key being checked first, and its connection closed', async () => {
        const { answer, closedAfterMs } = await sendOversized('lvs_unknown');
        expect({ status: answer.status, body: JSON.parse(answer.body), connection: answer.headers.connection }).toEqual({
          status: 401,
          body: UNAUTHORIZED,
          connection: 'close',
        });
        expect(closedAfterMs).not.toBeNull();
        expect(closedAfterMs).toBeLessThan(1000);
      });
    });
  });

  describe.each([
    ['POST /v1/batches', '/v1/batches'],
    ['POST /v1/watchlist:batchAdd', '/v1/watchlist:batchAdd'],
  ])('%s, whose rosters may reach 512 KiB: the key is checked before more than 16 KiB is read', (_name, path) => {
    /** Sends the headers and 17 KiB at once, then a byte every 200 ms, as long as the socket lasts. */
    async function sendLargeSlowly(key: string, framing: string, frame: (bytes: string) => string) {
      let dripping: NodeJS.Timeout | undefined;
      const started = Date.now();
      const exchange = await exchangeRaw(
        t.baseUrl,
        (socket) => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
          socket.write(frame(`{"pad":"${'x'.repeat(17 * 1024)}`));
          dripping = setInterval(() => socket.writable && socket.write(frame('x')), 200);
        },
        { waitMs: REQUEST_BODY_TIMEOUT_MS + 2000, untilClosed: true },
      );
      clearInterval(dripping);
      return { answer: onlyAnswer(exchange.received), closedAfterMs: exchange.closedAfterMs, tookMs: Date.now() - started };
    }

    it.each([
      ['chunked', 'Transfer-Encoding: chunked', (bytes: string) => `${bytes.length.toString(16)}\r\n${bytes}\r\n`],
      ['of an announced 100 KiB', `Content-Length: ${100 * 1024}`, (bytes: string) => bytes],
    ])('answers a large body %s with a bad key 401 at once, unread, and closes the connection', async (_case, framing, frame) => {
      const { answer, closedAfterMs } = await sendLargeSlowly('lvs_unknown', framing, frame);
      expect({ status: answer.status, body: JSON.parse(answer.body), connection: answer.headers.connection }).toEqual({
        status: 401,
        body: UNAUTHORIZED,
        connection: 'close',
      });
      expect(closedAfterMs).not.toBeNull();
      expect(closedAfterMs).toBeLessThan(1000); // reading on, it would wait for the 3 s body deadline
    });

    it('keeps reading a large body from a valid key, up to the body deadline: its limit is still 512 KiB', async () => {
      const { answer, tookMs } = await sendLargeSlowly(apiKey, `Content-Length: ${100 * 1024}`, (bytes) => bytes);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([408, { code: 'REQUEST_TIMEOUT', message: expect.any(String) }]);
      expect(tookMs).toBeGreaterThanOrEqual(REQUEST_BODY_TIMEOUT_MS - 500);
    });

    it('reads a whole 100 KiB body from a valid key and judges its content, not its size; with a bad key, 401', async () => {
      const body = JSON.stringify({ pad: 'x'.repeat(100 * 1024) });
      const answered = await request(t.baseUrl, 'POST', path, { headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body });
      expect([answered.status, answered.body]).toEqual([
        400,
        { code: 'VALIDATION_ERROR', message: 'Request body must have either items or licenceNumbers, as an array' },
      ]);
      const refused = await request(t.baseUrl, 'POST', path, { headers: { 'x-api-key': 'lvs_unknown', 'content-type': 'application/json' }, body });
      expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
      await expectNoCharge();
    });
  });

  it('reads no more than 16 KiB of a console roster upload without a live session, and closes the connection', async () => {
    let dripping: NodeJS.Timeout | undefined;
    const exchange = await exchangeRaw(
      t.baseUrl,
      (socket) => {
        socket.write(
          `POST /console/rosters HTTP/1.1\r\nHost: x\r\nOrigin: ${t.baseUrl}\r\nCookie: __Host-lvs_console=not-a-session\r\nContent-Type: text/csv\r\nContent-Length: ${100 * 1024}\r\n\r\n`,
        );
        socket.write(`licenceNumber\n${'1011001544208079\n'.repeat(1100)}`);
        dripping = setInterval(() => socket.writable && socket.write('x'), 200);
      },
      { waitMs: REQUEST_BODY_TIMEOUT_MS + 2000, untilClosed: true },
    );
    clearInterval(dripping);
    const answer = onlyAnswer(exchange.received);
    expect({ status: answer.status, body: answer.body, connection: answer.headers.connection }).toEqual({
      status: 400,
      body: JSON.stringify({ code: 'VALIDATION_ERROR', message: 'Request body must not exceed 16 KiB' }),
      connection: 'close',
    });
    expect(exchange.closedAfterMs).not.toBeNull();
    expect(exchange.closedAfterMs).toBeLessThan(1000);
  });

  describe.each([';;;', 'application/json, text/plain', 'text/plain; charset="', '\u00e9'])('a Content-Type Fastify cannot parse: %j', (contentType) => {
    const post = (key: string) =>
      sendRaw(
        t.baseUrl,
        Buffer.from(
          'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
            `X-API-Key: ${key}\r\nContent-Type: ${contentType}\r\nContent-Length: 2\r\n\r\n{}`,
          'latin1',
        ),
      );

    it('is answered 401 with a bad key: the key is checked first', async () => {
      const answer = onlyAnswer((await post('lvs_unknown')).received);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual(UNAUTHORIZED);
    });

    it('is answered 400 "Content-Type must be application/json" with a good key', async () => {
      const answer = onlyAnswer((await post(apiKey)).received);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ code: 'VALIDATION_ERROR', message: 'Content-Type must be application/json' });
    });
  });

  describe('malformed HTTP, each answered with its code, exactly {code, message}, and a closed connection', () => {
    it.each([
      ['a control byte in the path', 'GET /v1/\x01quota HTTP/1.1\r\nHost: x\r\n\r\n', 400, NOT_HTTP],
      ['a control character in a header value', 'GET /v1/quota/usage HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n', 400, NOT_HTTP],
      ['a lower-case method', 'get /v1/quota/usage HTTP/1.1\r\nHost: x\r\n\r\n', 400, NOT_HTTP],
      ['a garbage request line', 'HELLO THERE\r\n\r\n', 400, NOT_HTTP],
      ['a space in a header name', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, NOT_HTTP],
      ['an unknown HTTP version', 'GET / HTTP/7.1\r\nHost: x\r\n\r\n', 400, NOT_HTTP],
      [
        'Content-Length together with Transfer-Encoding',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        NOT_HTTP,
      ],
      [
        'a bad chunk size',
        'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        400,
        NOT_HTTP,
      ],
      [
        'a header block over 16 KiB',
        `GET /v1/quota/usage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
      ],
      [
        'a URL of 100,000 characters',
        `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
        { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
      ],
    ])('%s', async (_name, raw, status, body) => {
      const exchange = await sendRaw(t.baseUrl, raw);
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual(body);
    });

    it.each([
      ['an undecodable percent escape', '/v1/%zz%E0'],
      ['an overlong UTF-8 dot-dot', '/%c0%ae%c0%ae/etc/passwd'],
    ])('answers a path with %s 400 "Request URL is not valid", without echoing it', async (_name, path) => {
      const exchange = await sendRaw(t.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ code: 'VALIDATION_ERROR', message: 'Request URL is not valid' });
      expect(exchange.received).not.toContain(path.slice(1, 6));
    });

    it('answers HTTP/1.1 without Host 400 "Host header is required"', async () => {
      const exchange = await sendRaw(t.baseUrl, `GET /v1/quota/usage HTTP/1.1\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`);
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ code: 'VALIDATION_ERROR', message: 'Host header is required' });
    });

    it('answers HTTP/1.0 without Host normally (Host is optional there)', async () => {
      const exchange = await sendRaw(t.baseUrl, `GET /v1/quota/usage HTTP/1.0\r\nX-API-Key: ${apiKey}\r\n\r\n`);
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ used: 0, quota: 10, remaining: 10 });
    });
  });

  describe('slow clients', () => {
    it('answers a body dripping one byte every 2 s with 408 and closes the connection at REQUEST_BODY_TIMEOUT_MS', async () => {
      const drip: NodeJS.Timeout[] = [];
      const exchange = await exchangeRaw(
        t.baseUrl,
        (socket) => {
          socket.write(
            'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\n' + `X-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
          );
          drip.push(setInterval(() => socket.writable && socket.write(' '), 2000));
        },
        { waitMs: REQUEST_BODY_TIMEOUT_MS + 5000, untilClosed: true },
      );
      drip.forEach(clearInterval);
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' });
      // The server's deadline check runs every second.
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_BODY_TIMEOUT_MS - 100);
      expect(exchange.closedAfterMs).toBeLessThan(REQUEST_BODY_TIMEOUT_MS + 1500);
      await expectNoCharge();
    });

    it('answers headers that never finish with 408 at REQUEST_HEADERS_TIMEOUT_MS', async () => {
      const exchange = await exchangeRaw(t.baseUrl, (socket) => socket.write('GET /v1/quota/usage HTTP/1.1\r\nHost: x\r\n'), {
        waitMs: REQUEST_HEADERS_TIMEOUT_MS + 5000,
        untilClosed: true,
      });
      const answer = onlyAnswer(exchange.received);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual({ code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' });
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_HEADERS_TIMEOUT_MS - 100);
      expect(exchange.closedAfterMs).toBeLessThan(REQUEST_HEADERS_TIMEOUT_MS + 1500);
    });
  });

  describe('security headers', () => {
    it("sends helmet's headers and no X-Powered-By on API answers, errors included", async () => {
      for (const response of [
        await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': apiKey } }),
        await request(t.baseUrl, 'GET', '/v1/quota/usage'),
        await request(t.baseUrl, 'GET', '/nowhere'),
      ]) {
        expect(response.headers.get('x-powered-by')).toBeNull();
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      }
    });

    it('keeps Swagger UI loadable under its CSP: scripts and styles from this origin, inline styles allowed', async () => {
      const page = await request(t.baseUrl, 'GET', '/docs');
      expect(page.status).toBe(200);
      const policy = Object.fromEntries(
        page.headers
          .get('content-security-policy')!
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources]),
      );
      expect(policy['script-src']).toEqual(["'self'"]);
      expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy['img-src']).toEqual(["'self'", 'data:']);
      expect(policy).not.toHaveProperty('upgrade-insecure-requests');
      // No inline script (it would need 'unsafe-inline'); every script and style sheet loads from here.
      expect(page.text).not.toMatch(/<script>|<script\s[^>]*>[^<\s]/);
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]);
      expect(assets.length).toBeGreaterThanOrEqual(4);
      for (const asset of assets) {
        expect(asset).not.toMatch(/^(https?:)?\/\//);
        const response = await request(t.baseUrl, 'GET', new URL(asset, `${t.baseUrl}/docs`).pathname);
        expect(response.status).toBe(200);
      }
      expect((await request(t.baseUrl, 'GET', '/docs/openapi.json')).status).toBe(200);
    });

    it('has CORS off without CORS_ORIGINS: no Access-Control headers, a preflight is not answered as one', async () => {
      const preflight = await request(t.baseUrl, 'OPTIONS', '/v1/licences/verify', {
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(404);
      expect(preflight.body).toEqual({ code: 'ROUTE_NOT_FOUND', message: 'Route not found' });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const answer = await request(t.baseUrl, 'GET', '/v1/quota/usage', {
        headers: { 'x-api-key': apiKey, origin: 'https://app.example.com' },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
