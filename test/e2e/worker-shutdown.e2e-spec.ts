import { quotaUsage, request, verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const unknownNumber = (index: number) => `1777${String(index).padStart(12, '0')}`;

/** Counts from the API's queue gauge, as an operator would read them. */
async function queueJobs(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^lvs_lookup_queue_jobs\{state="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

describe('worker SIGTERM', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { WORKER_CONCURRENCY: '2', VERIFY_TIMEOUT_MS: '1000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  afterAll(() => t.close());

  it('finishes the active lookups, fails none, and leaves the waiting ones to the next worker', async () => {
    const key = (await t.createKey()).key;
    const sandbox = new SandboxAdmin(t.sandbox.url);
    await sandbox.setFault({ fault: 'none', latencyMs: 1000 }); // under the 1.5 s request timeout of the tests
    const numbers = Array.from({ length: 6 }, (_, index) => unknownNumber(900 + index));
    const first = Promise.all(numbers.map((number) => verify(t.baseUrl, key, number, `order-${number}`)));
    await until(
      () => sandbox.counts(),
      (counts) => counts.total >= 2,
    );
    // The other four requests may still be charging when the register sees the first two (seen in CI): wait until all
    // six are queued, then the exact counts.
    // Live lookups wait in the prioritised set, in their users' turns.
    const queued = await until(
      () => queueJobs(t.baseUrl),
      (jobs) => jobs.prioritized + jobs.active >= 6,
      5000,
    );
    expect(queued).toEqual({ waiting: 0, prioritized: 4, active: 2, delayed: 0, failed: 0 });

    const [worker] = t.workers;
    await worker.stop('SIGTERM');
    expect(worker.log).toContain('SIGTERM: no longer taking jobs');
    expect(worker.log).toContain('Active jobs of register-lookup finished');
    expect((await first).map((response) => response.status)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(await queueJobs(t.baseUrl)).toEqual({ waiting: 0, prioritized: 4, active: 0, delayed: 0, failed: 0 });
    expect((await sandbox.counts()).total).toBe(2);

    await sandbox.clearFaults();
    await t.startWorker();
    const retries = await Promise.all(numbers.map((number) => verify(t.baseUrl, key, number, `order-${number}`)));
    expect(retries.map((response) => [response.status, (response.body as { status: string }).status])).toEqual(numbers.map(() => [404, 'NOT_FOUND']));
    expect(await queueJobs(t.baseUrl)).toEqual({ waiting: 0, prioritized: 0, active: 0, delayed: 0, failed: 0 });
    expect((await quotaUsage(t.baseUrl, key)).body).toMatchObject({ used: 6 });
  }, 60_000);

  it('lets a webhook delivery in flight finish when the worker stops, and closes its HTTP agent only after', async () => {
    const key = (await t.createKey()).key;
    const receiver = await WebhookReceiver.start();
    try {
      const call = (method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
      const created = await call('POST', '/v1/webhooks', { url: `${receiver.url}/slow` });
      expect(created.status).toBe(201);
      const { id, secret } = created.body as { id: string; secret: string };
      receiver.useSecret('/slow', secret);
      receiver.holdAnswers('/slow', 2000);
      const worker = t.workers.at(-1)!;

      expect((await call('POST', `/v1/webhooks/${id}/test`)).status).toBe(202);
      await until(
        () => receiver.to('/slow'),
        (got) => got.length === 1,
      );
      const stopping = Date.now();
      await worker.stop('SIGTERM');
      // The worker waited for the receiver's answer (held 2 s) before it exited, and recorded it.
      expect(Date.now() - stopping).toBeGreaterThan(1000);
      expect(worker.log).toContain('Active jobs of webhook-delivery finished');
      expect(receiver.to('/slow').map((delivery) => [delivery.body.type, delivery.verified, delivery.answeredWith])).toEqual([['ping', true, 200]]);
      const { deliveries } = (await call('GET', `/v1/webhooks/${id}/deliveries`)).body as {
        deliveries: { status: string; attempts: { responseStatus: number }[] }[];
      };
      expect(deliveries.map((delivery) => [delivery.status, delivery.attempts.map((attempt) => attempt.responseStatus)])).toEqual([['DELIVERED', [200]]]);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
