import { createServer, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Queue } from 'bullmq';
import { DeliveryJobData, WEBHOOK_DELIVERY_QUEUE } from '../../src/webhooks/delivery.queue';
import { MANUAL_SEND_INTERVAL_MS } from '../../src/webhooks/webhook-limits';
import { request, TestResponse } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const LIMIT_BODY = { code: 'VALIDATION_ERROR', message: 'A user may have at most 10 webhook endpoints' };
const RATE_LIMITED = { code: 'RATE_LIMITED', message: 'Too many requests; retry after the time in Retry-After' };

/**
 * A receiver that counts the requests it holds at once. With `answerAfterMs` null it accepts every
 * connection, reads the request and never answers; else it answers 200 that long after open() is called
 * (at once for requests that come later).
 */
class HoldingServer {
  received = 0;
  answered = 0;
  mostAtOnce = 0;
  private held = 0;
  private readonly sockets = new Set<Socket>();
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  private constructor(private readonly server: Server) {}

  static async start(answerAfterMs: number | null): Promise<HoldingServer> {
    let holding!: HoldingServer;
    const server = createServer((request, response) => {
      holding.received += 1;
      holding.held += 1;
      holding.mostAtOnce = Math.max(holding.mostAtOnce, holding.held);
      request.resume();
      if (answerAfterMs === null) return;
      void holding.gate.then(() =>
        setTimeout(() => {
          holding.held -= 1;
          holding.answered += 1;
          response.end();
        }, answerAfterMs),
      );
    });
    server.on('connection', (socket) => {
      holding.sockets.add(socket);
      socket.on('close', () => holding.sockets.delete(socket));
    });
    holding = new HoldingServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return holding;
  }

  open(): void {
    this.opened();
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhooks: isolation between endpoints and users', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let silent: HoldingServer;
  let slow: HoldingServer;

  const call = (key: string, method: string, path: string, body?: object) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
  const addEndpoint = async (key: string, url: string) => {
    const created = await call(key, 'POST', '/v1/webhooks', { url });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  };
  const expectRateLimited = (response: TestResponse, retryAfter: string) =>
    expect([response.status, response.body, response.headers.get('retry-after')]).toEqual([429, RATE_LIMITED, retryAfter]);
  const count = async (sql: string, values: unknown[]) => Number((await t.db.query<{ n: string }>(sql, values)).rows[0].n);
  /** Test pings to one endpoint, the service clock moved on 10 s before each so that the manual-send limit lets each one through. */
  const pingTimes = async (key: string, endpointId: string, times: number) => {
    for (let ping = 0; ping < times; ping += 1) {
      t.clock.travelTo(new Date(t.clock.now().getTime() + MANUAL_SEND_INTERVAL_MS));
      expect((await call(key, 'POST', `/v1/webhooks/${endpointId}/test`)).status).toBe(202);
    }
  };

  beforeAll(async () => {
    // One attempt per delivery: what is measured is the wait for a slot, not retries.
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0' }, withWorker: true });
    receiver = await WebhookReceiver.start();
    silent = await HoldingServer.start(null);
    slow = await HoldingServer.start(100);
  });
  afterEach(() => t.clock.set(null));
  afterAll(async () => {
    await silent.close(); // the attempts still waiting on it end at once
    await slow.close();
    await t.close();
    await receiver.close();
  });

  it('caps a user at 10 endpoints, also when 12 are created at once, and leaves no row for the refused ones', async () => {
    const { key, userId } = await t.createKey();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => call(key, 'POST', '/v1/webhooks', { url: `${receiver.url}/cap-${index}` })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => [answer.status, answer.body])).toEqual([
      [400, LIMIT_BODY],
      [400, LIMIT_BODY],
    ]);
    expect(await count('SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = $1', [userId])).toBe(10);

    // Another user is not counted with this one, and removing an endpoint makes room again.
    const other = await t.createKey();
    await addEndpoint(other.key, `${receiver.url}/other`);
    const { id } = answers.find((answer) => answer.status === 201)!.body as { id: string };
    expect((await call(key, 'DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
    await addEndpoint(key, `${receiver.url}/cap-again`);
    expect((await call(key, 'POST', '/v1/webhooks', { url: `${receiver.url}/cap-over` })).body).toEqual(LIMIT_BODY);
  });

  it('allows one manual send per endpoint per 10 s, pings and replays together: 429 RATE_LIMITED with Retry-After, and no trace', async () => {
    const { key } = await t.createKey();
    const limited = await addEndpoint(key, `${receiver.url}/limited`);
    const neighbour = await addEndpoint(key, `${receiver.url}/neighbour`);
    const start = new Date('2026-12-01T12:00:00.000Z');
    t.clock.set(start);
    const at = (offsetMs: number) => t.clock.set(new Date(start.getTime() + offsetMs));

    // Five at once: one goes, four wait the whole interval.
    const pings = await Promise.all(Array.from({ length: 5 }, () => call(key, 'POST', `/v1/webhooks/${limited.id}/test`)));
    expect(pings.filter((ping) => ping.status === 202)).toHaveLength(1);
    for (const ping of pings.filter((answer) => answer.status !== 202)) expectRateLimited(ping, '10');
    expect((await call(key, 'POST', `/v1/webhooks/${neighbour.id}/test`)).status).toBe(202); // each endpoint has its own turn
    const deliveryId = (pings.find((ping) => ping.status === 202)!.body as { id: string }).id;
    await until(
      () => receiver.to('/limited'),
      (got) => got.length === 1,
    );

    at(9_001);
    expectRateLimited(await call(key, 'POST', `/v1/webhooks/${limited.id}/test`), '1');
    expectRateLimited(await call(key, 'POST', `/v1/webhooks/${limited.id}/deliveries/${deliveryId}/retry`), '1');
    // A wrong delivery id is answered as before, and uses up no turn.
    at(MANUAL_SEND_INTERVAL_MS);
    const unknown = await call(key, 'POST', `/v1/webhooks/${limited.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`);
    expect([unknown.status, unknown.body]).toEqual([404, { code: 'DELIVERY_NOT_FOUND', message: 'Delivery not found' }]);
    expect((await call(key, 'POST', `/v1/webhooks/${limited.id}/deliveries/${deliveryId}/retry`)).status).toBe(202);
    expectRateLimited(await call(key, 'POST', `/v1/webhooks/${limited.id}/test`), '10');
    await until(
      () => receiver.to('/limited'),
      (got) => got.length === 2,
    );

    // The refused sends left nothing: one ping event and one delivery, sent twice (the ping and its replay).
    expect(await count(`SELECT count(*) AS n FROM events WHERE type = 'ping' AND data->>'endpointId' = $1`, [limited.id])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1', [limited.id])).toBe(1);
  });

  it("does not delay another user's event while an endpoint that never answers is sent 50 test pings: delivered within 3 s, signed", async () => {
    // The 1-per-10-s limit counts on the service clock, so the test moves that clock on 10 s before each
    // ping: these are 50 test pings to one endpoint, as the issue has them, sent in a second or two.
    const userA = await t.createKey();
    const hanging = await addEndpoint(userA.key, `${silent.url}/never`);
    await pingTimes(userA.key, hanging.id, 50);
    await until(
      () => silent.received,
      (received) => received >= 2,
    );

    const userB = await t.createKey();
    const endpointB = await addEndpoint(userB.key, `${receiver.url}/user-b`);
    receiver.useSecret('/user-b', endpointB.secret);
    const sentAt = Date.now();
    expect((await call(userB.key, 'POST', `/v1/webhooks/${endpointB.id}/test`)).status).toBe(202);
    const [hook] = await until(
      () => receiver.to('/user-b'),
      (got) => got.length === 1,
      3_000,
    );
    expect(Date.now() - sentAt).toBeLessThan(3_000);
    expect([hook.verified, hook.body.type]).toEqual([true, 'ping']);

    // Meanwhile the silent endpoint held two requests, never more, and waiting used up none of its
    // deliveries' attempts (one each here): 2 are in flight, 48 wait, delayed, for a slot.
    expect([silent.mostAtOnce, silent.received]).toEqual([2, 2]);
    expect(await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'PENDING'`, [hanging.id])).toBe(50);
    const queue = new Queue<DeliveryJobData>(WEBHOOK_DELIVERY_QUEUE, { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
    try {
      const ids = new Set(
        (await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [hanging.id])).rows.map(({ id }) => id),
      );
      const jobs = (await queue.getJobs(['active', 'delayed', 'wait', 'prioritized'])).filter((job) => ids.has(job.data.deliveryId));
      expect(jobs.map((job) => job.attemptsMade)).toEqual(Array.from({ length: 50 }, () => 0));
    } finally {
      await queue.close();
    }
  });

  it('sends a burst to a quick endpoint 2 at a time, each freed slot taken at once by the next delivery', async () => {
    const { key } = await t.createKey();
    const quick = await addEndpoint(key, `${slow.url}/quick`);
    // 20 deliveries queued while the endpoint holds its first 2 requests, so that 18 wait for a slot.
    await pingTimes(key, quick.id, 20);
    await until(
      () => slow.received,
      (received) => received === 2,
    );
    const openedAt = Date.now();
    slow.open();
    // 20 answers of 100 ms, 2 at a time: about 1 s. Deliveries that each waited out their own delay (5 s)
    // instead of being woken by the slot their predecessor freed would take 5 s or more.
    await until(
      () => slow.answered,
      (answered) => answered === 20,
      15_000,
    );
    expect(Date.now() - openedAt).toBeLessThan(3_000);
    expect([slow.mostAtOnce, slow.received]).toEqual([2, 20]);
    await until(
      () => count(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'DELIVERED'`, [quick.id]),
      (delivered) => delivered === 20,
    );
    expect(
      await count('SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1', [quick.id]),
    ).toBe(20);
  });
});
