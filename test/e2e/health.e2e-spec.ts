import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

describe('health probes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

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
      info: { database: { status: 'up' }, redis: { status: 'up' } },
      error: {},
    });
  });

  it('answers 503 with the error body while Redis does not answer, and recovers', async () => {
    await t.redis.call('CLIENT', 'PAUSE', '2500', 'ALL');
    const response = await request(t.baseUrl, 'GET', '/health/ready');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service cannot reach its database or Redis; try again later',
    });
    await t.redis.call('CLIENT', 'UNPAUSE');
    expect((await request(t.baseUrl, 'GET', '/health/ready')).status).toBe(200);
  });

  it('is not part of the partner API document', async () => {
    const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/v1/licences/verify');
    expect(paths.filter((path) => !path.startsWith('/v1/'))).toEqual([]);
  });
});
