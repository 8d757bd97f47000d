import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiProcess } from '../support/api-process';
import { request } from '../support/http';
import { startOperatorApi } from '../support/operator-join';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_REDIS_URL } from '../support/test-run';
import { until } from '../support/until';

const ADMIN_TOKEN = 'admin-token-for-operator-port-tests';
const ROUTE_NOT_FOUND = { code: 'ROUTE_NOT_FOUND', message: 'Route not found' };

describe("the operators' listener (OPERATOR_PORT) of a real API process", () => {
  let t: TestApp;
  let api: ApiProcess;
  let operatorUrl: string;

  const ready = () => fetch(`${operatorUrl}/health/ready`).then(async (response) => ({ status: response.status, body: await response.json() }));

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    // Another loopback address than the partner port's HOST (127.0.0.1), to see OPERATOR_HOST taken.
    ({ api, operatorUrl } = await startOperatorApi({ ...t.env, OPERATOR_HOST: '127.0.0.2', ADMIN_TOKEN }));
  });
  afterAll(async () => {
    await api.stop();
    await t.close();
  });

  it('serves /metrics on the operator port only: 404 on the partner port, 200 on the operator port', async () => {
    const partner = await request(api.baseUrl, 'GET', '/metrics');
    expect([partner.status, partner.body]).toEqual([404, ROUTE_NOT_FOUND]);
    const operator = await fetch(`${operatorUrl}/metrics`);
    expect(operator.status).toBe(200);
    expect(operator.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    // The operator port renders the partner app's own registry: it counts the 404 just sent to the partner port.
    expect(await operator.text()).toContain('lvs_http_request_duration_seconds_count{method="GET",route="(no route)",status="404"} 1');
    // Scrapes and probes on the operator port are not partner traffic: not timed.
    expect(await (await fetch(`${operatorUrl}/metrics`)).text()).not.toContain('route="/metrics"');
  });

  it('binds the operator port to OPERATOR_HOST only', async () => {
    expect(new URL(operatorUrl).hostname).toBe('127.0.0.2');
    await expect(fetch(`http://127.0.0.1:${new URL(operatorUrl).port}/health/live`)).rejects.toThrow();
  });

  it('moves /health/live and /health/ready to the operator port', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const partner = await request(api.baseUrl, 'GET', path);
      expect([path, partner.status, partner.body]).toEqual([path, 404, ROUTE_NOT_FOUND]);
    }
    const live = await fetch(`${operatorUrl}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    // The worker's first heartbeat may come after the API's start on a busy machine: wait for it, then check the body.
    expect(await until(ready, (answer) => answer.status === 200, 10_000)).toMatchObject({
      status: 200,
      body: { status: 'ok', info: { database: { status: 'up' }, workers: { live: 1 } } },
    });
  });

  it('moves the queue dashboard to the operator port, still behind the admin token', async () => {
    const partner = await request(api.baseUrl, 'GET', '/admin/queues', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect([partner.status, partner.body]).toEqual([404, ROUTE_NOT_FOUND]);
    const refused = await fetch(`${operatorUrl}/admin/queues`);
    expect([refused.status, await refused.json()]).toEqual([401, { code: 'UNAUTHORIZED', message: 'Invalid or missing admin token' }]);
    const page = await fetch(`${operatorUrl}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const queues = await fetch(`${operatorUrl}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(((await queues.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name)).toEqual([
      'register-lookup',
      'register-lookup-test',
    ]);
  });

  it('serves partners nothing on the operator port, and operators nothing in the partner document', async () => {
    for (const path of ['/v1/quota/usage', '/docs/openapi.json', '/docs']) {
      const answer = await fetch(`${operatorUrl}${path}`);
      expect([path, answer.status, await answer.json()]).toEqual([path, 404, ROUTE_NOT_FOUND]);
    }
    const document = (await request(api.baseUrl, 'GET', '/docs/openapi.json')).body as { paths: Record<string, unknown> };
    expect(
      Object.keys(document.paths).filter((path) => !path.startsWith('/v1/') && !['/.well-known/jwks.json', '/.well-known/jwks-test.json'].includes(path)),
    ).toEqual([]);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/licences/verify', '/v1/quota/usage']));
  });

  it('answers readiness from one check a second, however many probes arrive', async () => {
    // redis-cli's MONITOR, not ioredis's monitor(): ioredis can read the first lines of the command stream as the
    // reply to MONITOR and fail with "Command queue state error" (seen in CI, Redis busy with other clients).
    const monitor = spawn('redis-cli', ['-u', TEST_REDIS_URL, 'monitor'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const workerCounts: number[] = [];
    // Readiness counts the live workers with one ZCOUNT on this key per check, and nothing else does here.
    const readinessCheck = `"zcount" "${t.redisPrefix}:workers-seen"`.toLowerCase();
    await new Promise<void>((resolve) =>
      createInterface({ input: monitor.stdout }).on('line', (line) => {
        if (line === 'OK') resolve();
        else if (line.toLowerCase().includes(readinessCheck)) workerCounts.push(Date.now());
      }),
    );
    try {
      await sleep(1100); // whatever an earlier test checked is now too old
      const probes = await Promise.all(Array.from({ length: 20 }, () => ready()));
      expect(probes.map((probe) => probe.status)).toEqual(Array(20).fill(200));
      await until(
        () => workerCounts.length,
        (count) => count >= 1,
        2000,
      );
      expect(workerCounts).toHaveLength(1);

      await sleep(1100);
      expect((await ready()).status).toBe(200);
      await until(
        () => workerCounts.length,
        (count) => count >= 2,
        2000,
      );
      expect(workerCounts).toHaveLength(2);
    } finally {
      monitor.kill();
    }
  });

  it('turns unready within about a second of the last worker stopping: no answer is older than 1 s', async () => {
    expect((await ready()).status).toBe(200);
    await t.workers[0].stop();
    const stoppedAt = Date.now();
    const unready = await until(ready, (answer) => answer.status === 503, 5000);
    // 1 s of cache at most, plus the probe's own round trip on a busy machine.
    expect(Date.now() - stoppedAt).toBeLessThan(1600);
    expect(unready.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: no lookup worker seen for 30 s' });
  });

  it('closes both listeners on SIGTERM', async () => {
    await api.stop();
    expect(api.log).toMatch(/Stopped in \d+ ms/);
    await expect(fetch(`${operatorUrl}/health/live`)).rejects.toThrow();
    await expect(fetch(`${api.baseUrl}/health/live`)).rejects.toThrow();
  });
});
