import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { request, verify } from '../support/http';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../support/otlp-receiver';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { WorkerProcess } from '../support/worker-process';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** The JSON log lines of a process that carry `traceId`. */
function linesOfTrace(log: string, traceId: string): Record<string, unknown>[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.traceId === traceId);
}

/** The spans from `span` up to its trace's root, by parent span id. */
function lineage(span: ReceivedSpan, trace: ReceivedSpan[]): ReceivedSpan[] {
  const chain = [span];
  for (;;) {
    const parent = trace.find((other) => other.spanId === chain[chain.length - 1].parentSpanId);
    if (!parent) return chain;
    chain.push(parent);
  }
}

/** Whether every span from `span` up to `rootSpanId` has arrived: each process sends its spans in its own batches. */
function reachesRoot(span: ReceivedSpan | undefined, trace: ReceivedSpan[], rootSpanId: string): boolean {
  return span !== undefined && lineage(span, trace).at(-1)!.spanId === rootSpanId;
}

describe('traces: a verify followed from the partner to the register and back, across the API and the worker', () => {
  let t: TestApp;
  let receiver: OtlpReceiver;
  let api: ApiProcess;
  let untraced: ApiProcess;
  let unsampled: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };
    [api, untraced, unsampled, worker] = await Promise.all([
      ApiProcess.start({ ...t.env, ...tracing }),
      ApiProcess.start(t.env),
      ApiProcess.start({ ...t.env, ...tracing, TRACE_SAMPLE_RATIO: '0' }),
      t.startWorker(tracing),
    ]);
  });
  afterAll(async () => {
    // Any of them may have failed to start.
    await Promise.all([api?.stop(), untraced?.stop(), unsampled?.stop()]);
    await t.close();
    await receiver.close();
  });

  it('makes one trace of the request, its job and the register request, named in the traceparent header and the log lines', async () => {
    const { key } = await t.createKey();
    const answer = await verify(api.baseUrl, key, SANDBOX_NUMBERS.active);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('traceparent')).toMatch(TRACEPARENT);
    const [, traceId, requestSpanId] = TRACEPARENT.exec(answer.headers.get('traceparent')!)!;
    const sandboxPort = Number(new URL(t.sandbox.url).port);

    const registerRequest = (span: ReceivedSpan) => span.kind === SPAN_KIND.client && span.attributes['server.port'] === sandboxPort;
    const trace = await until(
      () => receiver.trace(traceId),
      (spans) => reachesRoot(spans.find(registerRequest), spans, requestSpanId),
      15_000,
    );

    const request = trace.find((span) => span.spanId === requestSpanId)!;
    expect(request).toMatchObject({ service: 'lvs-api', kind: SPAN_KIND.server, name: 'POST /v1/licences/verify', parentSpanId: '' });
    expect(request.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/licences/verify', 'http.response.status_code': 200 });

    // register request (worker) -> job (worker) -> job added (API) -> request (API)
    const [fetched, job, added, root] = lineage(trace.find(registerRequest)!, trace).filter((span) => span.kind !== SPAN_KIND.internal);
    expect(fetched).toMatchObject({ service: 'lvs-worker', name: 'POST', attributes: expect.objectContaining({ 'http.response.status_code': 200 }) });
    expect(job).toMatchObject({ service: 'lvs-worker', kind: SPAN_KIND.consumer, name: 'process register-lookup' });
    expect(added).toMatchObject({ service: 'lvs-api', kind: SPAN_KIND.producer, name: expect.stringMatching(/^add register-lookup\b/) });
    expect(root).toBe(request);
    expect(job.parentSpanId).toBe(added.spanId);

    // The calls to Redis and PostgreSQL of that work are in the same trace.
    const database = (system: string) => trace.filter((span) => span.kind === SPAN_KIND.client && span.attributes['db.system.name'] === system);
    expect(database('redis').map((span) => span.service)).toEqual(expect.arrayContaining(['lvs-api', 'lvs-worker']));
    expect(database('postgresql').length).toBeGreaterThan(0);

    // The request's log line in the API, and the worker's lines about its lookup, carry the trace id.
    await until(
      () => linesOfTrace(worker.log, traceId).length,
      (count) => count > 0,
      5000,
    );
    expect(linesOfTrace(api.log, traceId)).toContainEqual(expect.objectContaining({ msg: 'request', route: '/v1/licences/verify', status: 200 }));
    expect(receiver.refused).toBe(0);
  });

  it("gives a query that TypeORM runs a span in its request's trace", async () => {
    const { key } = await t.createKey();
    const answer = await request(api.baseUrl, 'GET', '/v1/events', { headers: { 'x-api-key': key } });
    expect(answer.status).toBe(200);
    const [, traceId, requestSpanId] = TRACEPARENT.exec(answer.headers.get('traceparent')!)!;
    const feedQuery = (span: ReceivedSpan) =>
      span.attributes['db.system.name'] === 'postgresql' && /FROM events/.test(String(span.attributes['db.query.text']));
    const trace = await until(
      () => receiver.trace(traceId),
      (spans) => spans.some(feedQuery),
      15_000,
    );
    expect(trace.find(feedQuery)).toMatchObject({ service: 'lvs-api', kind: SPAN_KIND.client, name: 'SELECT', parentSpanId: requestSpanId });
  });

  it('makes each webhook delivery a job span in the trace that queued it, with its HTTP request under it', async () => {
    const partner = await WebhookReceiver.start();
    try {
      const { key } = await t.createKey();
      const call = (method: string, path: string, body?: object) => request(api.baseUrl, method, path, { headers: { 'x-api-key': key }, body });
      const endpoint = await call('POST', '/v1/webhooks', { url: `${partner.url}/hooks?token=partner-secret` });
      expect(endpoint.status).toBe(201);
      const ping = await call('POST', `/v1/webhooks/${(endpoint.body as { id: string }).id}/test`);
      expect(ping.status).toBe(202);
      const [, traceId, requestSpanId] = TRACEPARENT.exec(ping.headers.get('traceparent')!)!;
      const partnerPort = Number(new URL(partner.url).port);
      const delivered = (span: ReceivedSpan) => span.kind === SPAN_KIND.client && span.attributes['server.port'] === partnerPort;
      const trace = await until(
        () => receiver.trace(traceId),
        (spans) => reachesRoot(spans.find(delivered), spans, requestSpanId),
        15_000,
      );
      const [post, job, added, root] = lineage(trace.find(delivered)!, trace).filter((span) => span.kind !== SPAN_KIND.internal);
      // Method and host only: the URL's path and query (here a token) stay out of the span.
      expect(post).toMatchObject({ service: 'lvs-worker', name: 'POST' });
      expect(post.attributes).toEqual({
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': partnerPort,
        'http.response.status_code': 200,
      });
      expect(job).toMatchObject({ service: 'lvs-worker', kind: SPAN_KIND.consumer, name: 'process webhook-delivery' });
      expect(added).toMatchObject({ service: 'lvs-api', kind: SPAN_KIND.producer, name: expect.stringMatching(/^add webhook-delivery\b/) });
      expect(root.spanId).toBe(requestSpanId);
    } finally {
      await partner.close();
    }
  });

  it('sends no span and writes no trace id for a request not sampled, and says so in its traceparent', async () => {
    const { key } = await t.createKey();
    const notSampled = await verify(unsampled.baseUrl, key, SANDBOX_NUMBERS.active);
    expect(notSampled.status).toBe(200);
    const [, traceId, flags] = /^00-([0-9a-f]{32})-[0-9a-f]{16}-([0-9a-f]{2})$/.exec(notSampled.headers.get('traceparent')!)!;
    expect(flags).toBe('00');

    // A sampled request made after it reaches the receiver whole: the unsampled process, which exports as often, has
    // had as long to send anything it recorded.
    const sampled = await verify(api.baseUrl, key, SANDBOX_NUMBERS.expired);
    const [, sampledTraceId, sampledSpanId] = TRACEPARENT.exec(sampled.headers.get('traceparent')!)!;
    await until(
      () => receiver.trace(sampledTraceId),
      (spans) => spans.some((span) => span.spanId === sampledSpanId),
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.trace(traceId)).toEqual([]);
    expect(unsampled.log).toContain('"route":"/v1/licences/verify"');
    expect(unsampled.log).not.toContain('"traceId"');
  });

  it('sends no traceparent header and writes no trace id with tracing off', async () => {
    const { key } = await t.createKey();
    const answer = await verify(untraced.baseUrl, key, SANDBOX_NUMBERS.expired);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('traceparent')).toBeNull();
    expect(untraced.log).not.toContain('"traceId"');
  });
});
