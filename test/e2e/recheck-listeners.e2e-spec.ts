import { getEventListeners } from 'node:events';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import type { TestingModule } from '@nestjs/testing';
import { LicenceMonitor } from '../../src/watchlist/licence-monitor';
import { RecheckLookups } from '../../src/watchlist/recheck-lookups';
import { RecheckProcessor } from '../../src/watchlist/recheck.processor';
import { request } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startInProcessWorker } from '../support/in-process-worker';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const RECHECKS = 25;

// The worker runs in this process so that the test can count the listeners on the monitor's
// shutdown signal, which lives as long as the worker and is raced by every re-check's lookup.
describe('re-checks and the worker shutdown signal', () => {
  let t: TestApp;
  let worker: TestingModule;

  beforeAll(async () => {
    t = await startTestApp();
    worker = await startInProcessWorker(t.clock);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  it(`leaves no listener on the signal after ${RECHECKS} re-checks whose lookups answered`, async () => {
    const { key } = await t.createKey();
    const headers = { 'x-api-key': key };
    expect((await request(t.baseUrl, 'PUT', `/v1/watchlist/${SANDBOX_NUMBERS.active}`, { headers, body: {} })).status).toBe(201);
    await until(
      async () => (await request(t.baseUrl, 'GET', '/v1/watchlist', { headers })).body as { items: { status: string | null }[] },
      (page) => page.items[0]?.status === 'FOUND',
    );
    // No scheduled re-check runs while we count: pause() waits for the active ones to end.
    await worker.get(RecheckProcessor).worker.pause();
    const monitor = worker.get(LicenceMonitor);
    // Private on purpose (nothing but shutdown may abort it); read here only to count its listeners.
    const { signal } = worker.get<RecheckLookups, { stopping: AbortController }>(RecheckLookups).stopping;
    const before = getEventListeners(signal, 'abort').length;
    const sandbox = new SandboxAdmin(t.sandbox.url);
    const asked = await sandbox.requestsFor(SANDBOX_NUMBERS.active);

    for (let i = 0; i < RECHECKS; i += 1) await monitor.recheck(SANDBOX_NUMBERS.active);

    // Each re-check raced a real lookup, which won: the register was asked every time.
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.active)).toBe(asked + RECHECKS);
    // Back to where it was, which is none: no re-check is running, so none may be listening.
    expect([before, getEventListeners(signal, 'abort').length]).toEqual([0, 0]);
  }, 60_000);
});
