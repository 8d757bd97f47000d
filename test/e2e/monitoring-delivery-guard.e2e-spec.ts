import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

// The API accepted a loopback endpoint (its override is on), but the worker that delivers runs with
// the override off, as production would: the guard at delivery time must refuse it. (A file of its
// own: the in-process API reads its settings once per spec file.)
describe('monitoring: the SSRF guard at delivery time', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1' } });
    await t.startWorker({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('refuses a delivery to 127.0.0.1: nothing reaches the receiver, the log shows one failed attempt, no retry', async () => {
    const { key } = await t.createKey();
    const call = (method: string, path: string) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key } });
    const created = await request(t.baseUrl, 'POST', '/v1/webhooks', { headers: { 'x-api-key': key }, body: { url: `${receiver.url}/internal` } });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect((await call('POST', `/v1/webhooks/${id}/test`)).status).toBe(202);

    const deliveries = async () => ((await call('GET', `/v1/webhooks/${id}/deliveries`)).body as { deliveries: any[] }).deliveries;
    await until(deliveries, (list) => list[0]?.status === 'FAILED', 10_000);
    await sleep(3000); // the schedule would have retried twice by now
    const log = await deliveries();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ eventType: 'ping', status: 'FAILED' });
    expect(log[0].attempts).toEqual([
      {
        attempt: 1,
        attemptedAt: expect.any(String),
        responseStatus: null,
        durationMs: expect.any(Number),
        error: 'url refused: scheme',
        nextAttemptAt: null,
      },
    ]);
    expect(receiver.received).toEqual([]);
    const listed = ((await call('GET', '/v1/webhooks')).body as { webhooks: any[] }).webhooks;
    expect(listed).toEqual([expect.objectContaining({ id, enabled: true, failingSince: expect.any(String) })]);
  });
});
