import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERROR_CODES } from '../../src/errors/error-codes';
import { request, TestResponse, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { unknownNumber, until } from '../support/until';

const CYCLE_SECONDS = 2;

// Its own app: the breaker is shared by every process of one Redis prefix, and here it must open.
describe('monitoring: re-checks keep off the register while the circuit breaker is open', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: {
        WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS),
        REGISTER_BREAKER_FAILURES: '2',
        REGISTER_BREAKER_COOLDOWN_SECONDS: '120',
        LOOKUP_ATTEMPTS: '1',
      },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());

  const call = (apiKey: string, method: string, path: string): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey } });
  const breakerState = async () =>
    ((await request(t.baseUrl, 'GET', '/health/ready')).body as { info?: { registerBreaker?: { state?: string } } }).info?.registerBreaker?.state;

  it('makes no re-check lookup while open, concludes nothing, and new numbers are refused at once', async () => {
    const { key } = await t.createKey();
    expect((await call(key, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.withConditions}`)).status).toBe(201);
    await until(
      async () => ((await call(key, 'GET', '/v1/watchlist')).body as { items: { status: string | null }[] }).items[0]?.status,
      (status) => status === 'FOUND',
    );

    await sandbox.setFault({ fault: 'status-503' });
    await until(breakerState, (state) => state === 'open', 15_000);
    await sandbox.changeLicence(SANDBOX_NUMBERS.withConditions, { status: 'Revoked' });
    const before = await sandbox.requestsFor(SANDBOX_NUMBERS.withConditions);

    await sleep(3 * CYCLE_SECONDS * 1000);
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.withConditions)).toBe(before);
    const started = Date.now();
    const refused = await verify(t.baseUrl, key, unknownNumber(91, 1));
    expect([refused.status, refused.body]).toEqual([503, { code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message }]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await breakerState()).toBe('open');
    // Ready all the same, with the register shown degraded and why.
    const ready = await request(t.baseUrl, 'GET', '/health/ready');
    expect([ready.status, (ready.body as { status: string }).status]).toEqual([200, 'ok']);
    expect((ready.body as { info: Record<string, unknown> }).info.registerBreaker).toEqual({
      status: 'up',
      responseTime: expect.any(Number),
      state: 'open',
      register: 'degraded',
      message:
        "The register cannot be reached: new lookups answer 503 until it answers again, cached answers are still served; the worker's log names the cause in a line 'Register <host> unreachable: …'",
    });
    const events = (await call(key, 'GET', '/v1/events')).body as { events: unknown[] };
    expect(events.events).toEqual([]);
    const [entry] = ((await call(key, 'GET', '/v1/watchlist')).body as { items: { status: string; licence: { status: string } }[] }).items;
    expect(entry).toMatchObject({ status: 'FOUND', licence: { status: 'Active' } });
  });
});
