import { Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { hashApiKey } from '../../src/auth/api-key-secret';
import { FormClient } from '../support/console-client';
import { request } from '../support/http';
import { freePort } from '../support/launcher-process';
import { series } from '../support/metrics-text';
import { ApiProcess } from '../support/api-process';
import { startTestApp, TestApp } from '../support/test-app';

const ADMIN_TOKEN = 'admin-token-for-tests';

async function waitForLine(source: () => string, pattern: RegExp): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const line = source()
      .split('\n')
      .find((candidate) => pattern.test(candidate));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`No log line matches ${pattern}:\n${source().slice(-3000)}`);
    await sleep(100);
  }
}

describe('operations: metrics, request logs and the queue dashboard, on real processes', () => {
  let t: TestApp;
  let api: ApiProcess;
  let apiUrl: string;
  let workerUrl: string;
  const keys: string[] = [];
  const numbers = new Set<string>();

  const verifyAt = (key: string, number: string, headers: Record<string, string> = {}) => {
    numbers.add(number);
    return request(apiUrl, 'POST', '/v1/licences/verify', { headers: { 'x-api-key': key, ...headers }, body: { licenceNumber: number } });
  };

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    api = await ApiProcess.start({ ...t.env, HOST: '127.0.0.1', PORT: String(port), ADMIN_TOKEN, LOG_LEVEL: 'debug' });
    workerUrl = `http://127.0.0.1:${t.workers[0].log.match(/Operators' listener .* on [\d.]+:(\d+)/)![1]}`;
  });
  afterAll(async () => {
    await api.stop();
    await t.close();
  });

  it('counts verifications by outcome and source, quota refusals and HTTP requests by route at /metrics', async () => {
    const key = (await t.createKey({ quota: 2 })).key;
    keys.push(key);
    expect((await verifyAt(key, SANDBOX_NUMBERS.active)).status).toBe(200);
    expect((await verifyAt(key, SANDBOX_NUMBERS.active)).status).toBe(200);
    expect((await verifyAt(key, SANDBOX_NUMBERS.notFound)).status).toBe(404);
    expect((await verifyAt(key, '1888000000000001')).status).toBe(429);

    const scrape = await fetch(`${apiUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await scrape.text();
    expect(series(text, 'lvs_verifications_total{outcome="FOUND",source="register"}')).toBe(1);
    expect(series(text, 'lvs_verifications_total{outcome="FOUND",source="cache"}')).toBe(1);
    expect(series(text, 'lvs_verifications_total{outcome="NOT_FOUND",source="register"}')).toBe(1);
    expect(series(text, 'lvs_verifications_total{outcome="PENDING",source="register"}')).toBe(0);
    expect(series(text, 'lvs_quota_refusals_total')).toBe(1);
    expect(series(text, 'lvs_http_request_duration_seconds_count{method="POST",route="/v1/licences/verify",status="200"}')).toBe(2);
    expect(series(text, 'lvs_http_request_duration_seconds_count{method="POST",route="/v1/licences/verify",status="429"}')).toBe(1);
    expect(text).not.toContain(SANDBOX_NUMBERS.active);
    expect(series(text, 'lvs_lookup_queue_jobs{state="failed"}')).toBe(0);
    expect(series(text, 'lvs_lookup_queue_jobs{state="prioritized"}')).toBe(0);

    const worker = await (await fetch(`${workerUrl}/metrics`)).text();
    expect(series(worker, 'lvs_register_lookups_total{outcome="FOUND"}')).toBe(1);
    expect(series(worker, 'lvs_register_lookups_total{outcome="NOT_FOUND"}')).toBe(1);
    expect(series(worker, 'lvs_register_lookup_duration_seconds_count{outcome="FOUND"}')).toBe(1);
    expect(series(worker, 'lvs_register_lookups_total{outcome="SERVICE_UNAVAILABLE"}')).toBe(0);
  });

  it("counts the console's verifications at /metrics as the API's", async () => {
    const key = (await t.createKey({ quota: 2 })).key;
    keys.push(key);
    numbers.add(SANDBOX_NUMBERS.active);
    const cachedFound = async () =>
      series(await (await fetch(`${apiUrl}/metrics`)).text(), 'lvs_verifications_total{outcome="FOUND",source="cache"}') ?? 0;
    expect((await verifyAt(key, SANDBOX_NUMBERS.active)).status).toBe(200);
    const before = await cachedFound();
    const client = new FormClient(apiUrl);
    expect((await client.signIn(key)).status).toBe(303);
    const _csrf = await client.tokenOf('/console/verify');
    const answered = await client.send('POST', '/console/verify', {
      _csrf,
      licenceNumber: SANDBOX_NUMBERS.active,
      firstName: '',
      surname: '',
      dateOfBirth: '',
    });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('Licence found');
    expect(await cachedFound()).toBe(before + 1);
  });

  it("serves the worker's health on its operators' listener", async () => {
    const ready = await fetch(`${workerUrl}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok' }]);
    const unknown = await fetch(`${workerUrl}/nothing`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { code: 'ROUTE_NOT_FOUND', message: 'Route not found' }]);
  });

  it("writes one JSON line per request with the caller's request id, which the worker's job log carries", async () => {
    const key = (await t.createKey()).key;
    keys.push(key);
    const response = await verifyAt(key, '1888000000000123', { 'x-request-id': 'trace-4711' });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('trace-4711');

    const requestLine = await waitForLine(() => api.log, /"requestId":"trace-4711".*"msg":"request"/);
    expect(requestLine).toMatchObject({
      level: 30,
      process: 'api',
      requestId: 'trace-4711',
      method: 'POST',
      route: '/v1/licences/verify',
      status: 404,
      msg: 'request',
    });
    expect(typeof requestLine.durationMs).toBe('number');
    const jobLine = await waitForLine(() => t.workers[0].log, /"requestId":"trace-4711"/);
    expect(jobLine).toMatchObject({
      process: 'worker',
      context: 'LookupProcessor',
      msg: expect.stringMatching(/^Lookup of \*{12}0123: NOT_FOUND in \d+ ms$/),
    });

    const generated = await request(apiUrl, 'GET', '/health/live', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the queue dashboard only with the admin token, and only when one is set', async () => {
    const basic = `Basic ${Buffer.from(`ops:${ADMIN_TOKEN}`).toString('base64')}`;
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${Buffer.from('ops:wrong').toString('base64')}`]) {
      const refused = await request(apiUrl, 'GET', '/admin/queues', { headers: authorization ? { authorization } : {} });
      expect([refused.status, refused.body]).toEqual([401, { code: 'UNAUTHORIZED', message: 'Invalid or missing admin token' }]);
      expect(refused.headers.get('www-authenticate')).toBe('Basic realm="queues"');
    }
    for (const authorization of [`Bearer ${ADMIN_TOKEN}`, basic]) {
      const page = await request(apiUrl, 'GET', '/admin/queues', { headers: { authorization } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    }
    const queues = await request(apiUrl, 'GET', '/admin/queues/api/queues', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(queues.status).toBe(200);
    expect((queues.body as { queues: { name: string }[] }).queues.map((queue) => queue.name)).toEqual(['register-lookup', 'register-lookup-test']);

    // The in-process app runs without ADMIN_TOKEN: no dashboard at all.
    expect(await request(t.baseUrl, 'GET', '/admin/queues')).toMatchObject({ status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'Route not found' } });
    const document = (await request(apiUrl, 'GET', '/docs/openapi.json')).body as { paths: Record<string, unknown> };
    // Operators' routes stay out of the partner document: only /v1 paths and the receipts' public keys (live and test) are in it.
    expect(
      Object.keys(document.paths).filter((path) => !path.startsWith('/v1/') && !['/.well-known/jwks.json', '/.well-known/jwks-test.json'].includes(path)),
    ).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/licences/verify', '/v1/quota/usage']));
  });

  it('keeps the dashboard read-only unless ADMIN_DASHBOARD_WRITE=true: pausing the lookup queue is refused, then allowed', async () => {
    const queue = new Queue('register-lookup', { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
    const writer = await ApiProcess.start({ ...t.env, ADMIN_TOKEN, ADMIN_DASHBOARD_WRITE: 'true' });
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const readOnlyModes = async (baseUrl: string) =>
      ((await request(baseUrl, 'GET', '/admin/queues/api/queues', { headers: admin })).body as { queues: { readOnlyMode: boolean }[] }).queues.map(
        (listed) => listed.readOnlyMode,
      );
    try {
      expect(await readOnlyModes(apiUrl)).toEqual([true, true]);
      const refused = await request(apiUrl, 'PUT', '/admin/queues/api/queues/register-lookup/pause', { headers: admin });
      expect([refused.status, refused.body]).toEqual([405, { error: { key: 'ERRORS.QUEUE_READ_ONLY' } }]);
      expect(await queue.isPaused()).toBe(false);

      expect(await readOnlyModes(writer.baseUrl)).toEqual([false, false]);
      expect((await request(writer.baseUrl, 'PUT', '/admin/queues/api/queues/register-lookup/pause', { headers: admin })).status).toBe(200);
      expect(await queue.isPaused()).toBe(true);
      expect((await request(writer.baseUrl, 'PUT', '/admin/queues/api/queues/register-lookup/resume', { headers: admin })).status).toBe(200);
      expect(await queue.isPaused()).toBe(false);
    } finally {
      await queue.resume();
      await queue.close();
      await writer.stop();
    }
  });

  it('keeps API keys, key hashes and full licence numbers out of every log line of the run', async () => {
    // A few more requests that carry secrets in other places: a bad bearer key, a bad body.
    expect((await request(apiUrl, 'GET', '/v1/quota/usage', { headers: { authorization: 'Bearer lvs_not-a-real-key-123456' } })).status).toBe(401);
    keys.push('lvs_not-a-real-key-123456');
    expect((await verifyAt(keys[0], '12345678901234567')).status).toBe(400);
    await api.stop(); // flushes its buffered log

    const logs = [api.log, ...t.workers.map((worker) => worker.log), ...t.logLines].join('\n');
    const lines = api.log.split('\n').filter(Boolean);
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(lines.length).toBeGreaterThan(10);
    const secrets = [...keys, ...keys.map(hashApiKey), ...numbers];
    expect(secrets.filter((secret) => logs.includes(secret))).toEqual([]);
    expect(logs).toContain('************8079');
  });
});
