import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const ALLOWED = 'https://app.example.com';

describe('CORS with CORS_ORIGINS set', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: `${ALLOWED},http://localhost:5173` } });
    apiKey = (await t.createKey()).key;
  });
  afterAll(() => t.close());

  it('answers a preflight from a listed origin with that origin allowed', async () => {
    const preflight = await request(t.baseUrl, 'OPTIONS', '/v1/licences/verify', {
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
  });

  it('allows a listed origin to read an answer, and an error answer', async () => {
    const answer = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': apiKey, origin: ALLOWED } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const error = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { origin: ALLOWED } });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('does not allow an origin that is not listed', async () => {
    const answer = await request(t.baseUrl, 'GET', '/v1/quota/usage', {
      headers: { 'x-api-key': apiKey, origin: 'https://evil.example.com' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
