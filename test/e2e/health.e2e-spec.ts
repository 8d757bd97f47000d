import { setTimeout as sleep } from 'node:timers/promises';
import { ApiProcess } from '../support/api-process';
import { request, TestResponse } from '../support/http';
import { PrivateRedis } from '../support/private-redis';
import { startTestApp, TestApp } from '../support/test-app';

const HEARTBEAT_WINDOW_MS = 3000;
// How long a started worker or a thawed Redis may take to show in readiness on a busy machine: not what is tested.
const RECOVERY_MS = 10_000;

/** Polls readiness until it answers `status`, or gives up after the timeout. */
async function readinessBecomes(baseUrl: string, status: number, timeoutMs: number): Promise<TestResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await request(baseUrl, 'GET', '/health/ready');
    if (response.status === status || Date.now() > deadline) return response;
    await sleep(200);
  }
}

describe('health probes', () => {
  let t: TestApp;
  // A Redis of this suite's own: it is frozen here, and the shared one serves other suites at the same time.
  let redis: PrivateRedis;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    // The default dependency deadline: readiness must turn 503 within it.
    t = await startTestApp({
      withWorker: true,
      env: { ...redis.serviceSettings, DEPENDENCY_TIMEOUT_MS: '800', WORKER_HEARTBEAT_TIMEOUT_MS: String(HEARTBEAT_WINDOW_MS) },
    });
  });
  afterAll(async () => {
    await t.close();
    await redis.destroy();
  });

  it('answers liveness without an API key', async () => {
    const response = await request(t.baseUrl, 'GET', '/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers readiness with PostgreSQL and Redis up', async () => {
    const response = await request(t.baseUrl, 'GET', '/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      info: {
        database: { status: 'up' },
        redis: { status: 'up' },
        workers: { status: 'up', live: 1 },
        registerBreaker: { status: 'up', state: 'closed', register: 'ok' },
      },
      error: {},
    });
  });

  it('answers 503 with the error body while Redis does not answer, and recovers', async () => {
    redis.freeze();
    // An answer may come from a check of the last second (READINESS_MAX_AGE_MS), made before the pause.
    const response = await readinessBecomes(t.baseUrl, 503, 1500);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Not ready: Redis does not answer; no lookup worker seen for 3 s',
    });
    redis.thaw();
    expect((await readinessBecomes(t.baseUrl, 200, RECOVERY_MS)).status).toBe(200);
  });

  it('answers 503 naming the workers when the only worker stops, and 200 again when one starts', async () => {
    await t.workers[0].stop();
    // Within the heartbeat window: a stopped worker removes its own entry, it does not wait to expire.
    const unready = await readinessBecomes(t.baseUrl, 503, HEARTBEAT_WINDOW_MS - 500);
    expect(unready.status).toBe(503);
    expect(unready.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: no lookup worker seen for 3 s' });

    await t.startWorker();
    const ready = await readinessBecomes(t.baseUrl, 200, RECOVERY_MS);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { workers: { status: 'up', live: 1 } } });
  });

  it('turns unready once a killed worker has not been seen for the window', async () => {
    const worker = t.workers[t.workers.length - 1];
    expect((await readinessBecomes(t.baseUrl, 200, RECOVERY_MS)).status).toBe(200);
    await worker.kill();
    // SIGKILL leaves the entry behind: it still counts until the window passes.
    expect((await request(t.baseUrl, 'GET', '/health/ready')).status).toBe(200);
    const unready = await readinessBecomes(t.baseUrl, 503, HEARTBEAT_WINDOW_MS + 3000);
    expect(unready.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: no lookup worker seen for 3 s' });
    await t.startWorker();
    expect((await readinessBecomes(t.baseUrl, 200, RECOVERY_MS)).status).toBe(200);
  });

  it('starts on a Redis that does not answer yet, and logs the outage in JSON lines only: no queue prints a stack', async () => {
    redis.freeze();
    // Thawed once the process has logged the outage; it then starts. Meanwhile every client and queue has met its
    // deadlines: the warning comes from the first client's.
    const api = await ApiProcess.start({ ...t.env, LOG_LEVEL: 'log' }, { whileStarting: { seen: /Redis unreachable/, then: () => redis.thaw() } });
    try {
      const lines = api.log.split('\n').filter(Boolean);
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
      expect(lines.filter((line) => line.includes('Redis unreachable'))).toHaveLength(1);
      expect((await readinessBecomes(t.baseUrl, 200, RECOVERY_MS)).status).toBe(200);
    } finally {
      await api.stop();
    }
  });

  it('is not part of the partner API document', async () => {
    const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/v1/licences/verify');
    expect(paths.filter((path) => !path.startsWith('/v1/') && !['/.well-known/jwks.json', '/.well-known/jwks-test.json'].includes(path))).toEqual([]);
  });
});
