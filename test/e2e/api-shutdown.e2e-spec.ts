import { FOUND_SANDBOX_NUMBERS } from '@lvs/test-register';
import { quotaUsage, verify } from '../support/http';
import { freePort, isListening } from '../support/launcher-process';
import { SandboxAdmin } from '../support/sandbox-admin';
import { ApiProcess } from '../support/api-process';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const unknownNumber = (index: number) => `1777${String(index).padStart(12, '0')}`;

describe('API SIGTERM', () => {
  let t: TestApp;
  let api: ApiProcess;
  let apiUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { WORKER_CONCURRENCY: '100' } });
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    // Generous waits: the point is that every answer is the real result, however loaded the machine; the charge
    // deadline too (a 503 would never reach the register, and the wait for 100 lookups below would never end).
    api = await ApiProcess.start({
      ...t.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      VERIFY_TIMEOUT_MS: '15000',
      SHUTDOWN_GRACE_MS: '20000',
      DATABASE_CHARGE_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    await api.kill();
    await t.close();
  });

  it('answers all of 100 in-flight requests with their real results, then exits cleanly', async () => {
    const key = (await t.createKey()).key;
    // A kept-alive idle connection must not hold the shutdown open.
    expect((await fetch(`${apiUrl}/health/live`)).status).toBe(200);
    const sandbox = new SandboxAdmin(t.sandbox.url);
    await sandbox.setFault({ fault: 'none', latencyMs: 1000 }); // under the 1.5 s request timeout of the tests

    // 100 distinct numbers, so 100 lookups: once the register has seen all of them, every request is in flight.
    const numbers = [...FOUND_SANDBOX_NUMBERS, ...Array.from({ length: 100 - FOUND_SANDBOX_NUMBERS.length }, (_, index) => unknownNumber(index))];
    const answers = Promise.all(numbers.map((number) => verify(apiUrl, key, number)));
    await until(
      () => sandbox.counts(),
      (counts) => counts.total >= 100,
    );
    api.signal('SIGTERM');

    const responses = await answers;
    const found = new Set<string>(FOUND_SANDBOX_NUMBERS);
    expect(responses.map((response) => response.status)).toEqual(numbers.map((number) => (found.has(number) ? 200 : 404)));
    expect(responses.map((response) => (response.body as { status: string }).status)).toEqual(
      numbers.map((number) => (found.has(number) ? 'FOUND' : 'NOT_FOUND')),
    );
    expect(await api.exited).toBe(0);
    expect(await isListening(Number(new URL(apiUrl).port))).toBe(false);
    expect(api.log).toContain('SIGTERM: no longer accepting connections');
    expect(api.log).toContain('Answered every request in flight');
    expect((await quotaUsage(t.baseUrl, key)).body).toMatchObject({ used: 100 });
  }, 60_000);
});
