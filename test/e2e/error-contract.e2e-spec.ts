import { Queue } from 'bullmq';
import { request, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';

const VALID_NUMBER = '1011001544208079';
const LICENCE_MESSAGE = { code: 'VALIDATION_ERROR', message: 'Licence number must be 16 digits' };
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };

describe('error contract of POST /v1/licences/verify and GET /v1/quota/usage', () => {
  let t: TestApp;
  let apiKey: string;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp();
    apiKey = (await t.createKey({ quota: 10 })).key;
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());

  /** Bad input leaves no trace: no charge, no job, no upstream call. */
  async function expectNoTrace(): Promise<void> {
    const charges = await t.db.query('SELECT count(*)::int AS n FROM quota_charges');
    const usage = await t.db.query('SELECT count(*)::int AS n FROM quota_usage');
    expect(charges.rows[0].n).toBe(0);
    expect(usage.rows[0].n).toBe(0);
    const queue = new Queue('register-lookup', { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
    try {
      expect(await queue.getJobCountByTypes('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed')).toBe(0);
    } finally {
      await queue.close();
    }
    expect((await sandbox.counts()).total).toBe(0);
  }

  const post = (headers: Record<string, string>, body?: string) =>
    request(t.baseUrl, 'POST', '/v1/licences/verify', { headers: { 'x-api-key': apiKey, ...headers }, body });

  describe.each([
    ['body that is not JSON', { 'content-type': 'application/json' }, '{"licenceNumber": ', 'Request body is not valid JSON'],
    ['JSON with a trailing comma', { 'content-type': 'application/json' }, '{"licenceNumber":"1011001544208079",}', 'Request body is not valid JSON'],
    ['empty body with JSON content type', { 'content-type': 'application/json' }, '', 'Request body must be a JSON object'],
    ['no body and no content type', {}, undefined, 'Request body must be a JSON object'],
    ['JSON array', { 'content-type': 'application/json' }, '["1011001544208079"]', 'Request body must be a JSON object'],
    ['JSON string', { 'content-type': 'application/json' }, '"1011001544208079"', 'Request body must be a JSON object'],
    [
      'prototype pollution attempt',
      { 'content-type': 'application/json' },
      '{"licenceNumber":"1011001544208079","__proto__":{"x":1}}',
      'Request body may only contain licenceNumber',
    ],
    ['text/plain content type', { 'content-type': 'text/plain' }, '{"licenceNumber":"1011001544208079"}', 'Content-Type must be application/json'],
    [
      'form content type',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'licenceNumber=1011001544208079',
      'Content-Type must be application/json',
    ],
    [
      'body over 16 KiB',
      { 'content-type': 'application/json' },
      JSON.stringify({ licenceNumber: VALID_NUMBER, pad: 'x'.repeat(16 * 1024) }),
      'Request body must not exceed 16 KiB',
    ],
    [
      'body over 1 MiB',
      { 'content-type': 'application/json' },
      JSON.stringify({ licenceNumber: VALID_NUMBER, pad: 'x'.repeat(1100 * 1024) }),
      'Request body must not exceed 16 KiB',
    ],
    [
      'unknown extra field',
      { 'content-type': 'application/json' },
      '{"licenceNumber":"1011001544208079","extra":true}',
      'Request body may only contain licenceNumber',
    ],
  ])('%s', (_name, headers, body, message) => {
    it('answers 400 VALIDATION_ERROR with its fixed message and leaves no trace', async () => {
      const response = await post(headers, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message });
      await expectNoTrace();
    });
  });

  describe.each([
    ['missing licenceNumber', {}],
    ['null licenceNumber', { licenceNumber: null }],
    ['a number instead of a string', { licenceNumber: 1011001544208079 }],
    ['15 digits', { licenceNumber: '101100154420807' }],
    ['17 digits', { licenceNumber: '10110015442080790' }],
    ['letters', { licenceNumber: '10110015442080AB' }],
    ['spaces inside', { licenceNumber: '1011 0015 4420 8079' }],
    ['surrounding spaces', { licenceNumber: ' 1011001544208079 ' }],
    ['Arabic-Indic digits', { licenceNumber: '١٠١١٠٠١٥٤٤٢٠٨٠٧٩' }],
    ['an array of digits', { licenceNumber: ['1011001544208079'] }],
  ])('licence number: %s', (_name, body) => {
    it('answers 400 "Licence number must be 16 digits" and leaves no trace', async () => {
      const response = await post({ 'content-type': 'application/json' }, JSON.stringify(body));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(LICENCE_MESSAGE);
      await expectNoTrace();
    });
  });

  it.each([
    ['a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé'],
  ])('rejects an Idempotency-Key with %s with 400 and no trace', async (_name, key) => {
    const response = await verify(t.baseUrl, apiKey, VALID_NUMBER, key);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
    });
    await expectNoTrace();
  });

  describe.each([
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'lvs_unknown' }],
    ['an empty key', { 'x-api-key': '' }],
    ['a Basic authorization', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('with %s', (_name, authHeaders) => {
    it('answers 401 on verify, even with a bad body, and leaves no trace', async () => {
      for (const body of ['{"licenceNumber":"1011001544208079"}', '{"licenceNumber":"123"}', '{not json', '']) {
        const response = await request(t.baseUrl, 'POST', '/v1/licences/verify', {
          headers: { 'content-type': 'application/json', ...authHeaders },
          body,
        });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHORIZED);
      }
      const tooLarge = await request(t.baseUrl, 'POST', '/v1/licences/verify', {
        headers: { 'content-type': 'application/json', ...authHeaders },
        body: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      });
      expect(tooLarge.status).toBe(401);
      await expectNoTrace();
    });

    it('answers 401 on quota usage', async () => {
      const response = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: authHeaders });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    });
  });

  it('answers unknown routes and methods with 404 ROUTE_NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/v1/licences/verify'],
      ['POST', '/v2/licences/verify'],
      ['DELETE', '/v1/quota/usage'],
    ]) {
      const response = await request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'ROUTE_NOT_FOUND', message: 'Route not found' });
    }
  });

  it('answers an unexpected failure of verify with 500 INTERNAL_ERROR, leaving no charge and no job', async () => {
    await t.db.query('ALTER TABLE quota_charges RENAME TO quota_charges_hidden');
    let response;
    try {
      response = await verify(t.baseUrl, apiKey, VALID_NUMBER);
    } finally {
      await t.db.query('ALTER TABLE quota_charges_hidden RENAME TO quota_charges');
    }
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      code: 'INTERNAL_ERROR',
      message: 'An internal error occurred while processing the request',
    });
    expect(response.text).not.toMatch(/quota_charges|relation|stack|at /i);
    await expectNoTrace();
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and no internals', async () => {
    await t.db.query('ALTER TABLE quota_usage RENAME TO quota_usage_hidden');
    try {
      const response = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': apiKey } });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        code: 'INTERNAL_ERROR',
        message: 'An internal error occurred while processing the request',
      });
      expect(response.text).not.toMatch(/quota_usage|relation|stack|at /i);
    } finally {
      await t.db.query('ALTER TABLE quota_usage_hidden RENAME TO quota_usage');
    }
  });
});
