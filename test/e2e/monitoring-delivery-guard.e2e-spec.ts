import { deliveriesSettled } from '../support/delivery-queue';
import { request } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { BLOCKED_BY_NAME, BLOCKED_IPV6_URLS } from '../support/ssrf-targets';
import { StubDns } from '../support/stub-dns';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

// The API accepted private endpoints (its override is on), but the worker that delivers runs with the override
// off, as production would: the guard at delivery time must refuse them, as literal addresses and by name.
// (A file of its own: the in-process API reads its settings once per spec file.)
describe('monitoring: the SSRF guard at delivery time', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let dns: StubDns;

  beforeAll(async () => {
    dns = await StubDns.start({
      ...BLOCKED_BY_NAME,
    });
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1' } });
    await t.startWorker({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_DNS_SERVERS: dns.server });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await dns.close();
  });

  /** Adds an endpoint for each URL, sends each a ping, and gives each one's delivery log once every delivery has ended. */
  async function pingEach(urls: string[]): Promise<Record<string, any[]>> {
    const { key } = await t.createKey();
    const call = (method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
    const ids: Record<string, string> = {};
    for (const url of urls) {
      const created = await call('POST', '/v1/webhooks', { url });
      expect([url, created.status]).toEqual([url, 201]);
      ids[url] = (created.body as { id: string }).id;
      expect((await call('POST', `/v1/webhooks/${ids[url]}/test`)).status).toBe(202);
    }
    const logs = async () => {
      const entries = await Promise.all(
        urls.map(async (url) => [url, ((await call('GET', `/v1/webhooks/${ids[url]}/deliveries`)).body as { deliveries: any[] }).deliveries]),
      );
      return Object.fromEntries(entries) as Record<string, any[]>;
    };
    await until(logs, (byUrl) => Object.values(byUrl).every((list) => list[0]?.status === 'FAILED'), 20_000);
    await deliveriesSettled(t); // no attempt is left queued, retries included
    return logs();
  }

  const refusedOnce = (error: string) => [
    {
      eventType: 'ping',
      status: 'FAILED',
      attempts: [{ attempt: 1, attemptedAt: expect.any(String), responseStatus: null, durationMs: expect.any(Number), error, nextAttemptAt: null }],
    },
  ];

  it('refuses IPv6 literals that carry a blocked IPv4 address, and the discard-only prefix: one refused attempt each, no retry', async () => {
    const logs = await pingEach(BLOCKED_IPV6_URLS);
    for (const url of BLOCKED_IPV6_URLS) {
      expect([url, logs[url].map(({ eventType, status, attempts }) => ({ eventType, status, attempts }))]).toEqual([
        url,
        refusedOnce('url refused: address'),
      ]);
    }
  });

  it('refuses names that resolve to such addresses, after asking the resolver it was given; an unknown name is not found, not refused', async () => {
    const names = Object.keys(BLOCKED_BY_NAME);
    const urls = [...names.map((name) => `https://${name}/hook`), 'https://unknown.hooks.test/hook'];
    const logs = await pingEach(urls);
    for (const name of names) {
      const url = `https://${name}/hook`;
      expect([url, logs[url].map(({ eventType, status, attempts }) => ({ eventType, status, attempts }))]).toEqual([
        url,
        refusedOnce('url refused: address'),
      ]);
      expect(dns.questions).toEqual(
        expect.arrayContaining([
          { name, type: 'A' },
          { name, type: 'AAAA' },
        ]),
      );
    }
    // Not refused, so retried by the schedule (0,1,1): three attempts, each ENOTFOUND.
    const unknown = logs['https://unknown.hooks.test/hook'];
    expect(unknown).toHaveLength(1);
    expect(unknown[0].attempts.map((attempt: { error: string }) => attempt.error)).toEqual(['ENOTFOUND', 'ENOTFOUND', 'ENOTFOUND']);
    expect(receiver.received).toEqual([]);
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
    await deliveriesSettled(t); // no attempt is left queued, retries included
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
