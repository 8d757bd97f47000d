import { LicenceVerificationClient, LicenceVerificationError, verifyWebhook } from '@lvs/client';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const GENERATED = join(ROOT, 'libs/client/src/generated/openapi.ts');

/** Every request the client sent and what it was answered: observed on the way, not changed. */
function recordingFetch(sent: { method: string; path: string; idempotencyKey: string | null; status: number }[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      idempotencyKey: request.headers.get('idempotency-key'),
      status: response.status,
    });
    return response;
  };
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

describe('@lvs/client against the real API and worker', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // A short wait, so that a slow register answer is PENDING first.
    t = await startTestApp({
      withWorker: true,
      env: { VERIFY_TIMEOUT_MS: '1000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0' },
    });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const clientFor = (apiKey: string, options: Partial<ConstructorParameters<typeof LicenceVerificationClient>[0]> = {}) =>
    new LicenceVerificationClient({ apiKey, baseUrl: t.baseUrl, ...options });

  it('ships the types openapi-typescript makes of the document the current code serves', async () => {
    const directory = join(ROOT, 'node_modules/.cache/lvs-client');
    mkdirSync(directory, { recursive: true });
    const fresh = join(directory, `openapi-${process.pid}.ts`);
    const tool = join(ROOT, 'test/client-example/node_modules/openapi-typescript/bin/cli.js');
    await run(process.execPath, [tool, `${t.baseUrl}/docs/openapi.json`, '--output', fresh]);
    // A mismatch names the fresh file: copy it over the committed one (docs/clients.md, "The client's types").
    expect({ file: fresh, types: readFileSync(GENERATED, 'utf8') }).toEqual({ file: fresh, types: readFileSync(fresh, 'utf8') });
  });

  it('answers FOUND, NOT_FOUND and TOO_MANY_RESULTS as results, and error bodies as LicenceVerificationError', async () => {
    const { key, userId } = await t.createKey({ quota: 10 });
    const client = clientFor(key);
    const found = await client.verify(SANDBOX_NUMBERS.active);
    expect(found).toMatchObject({ status: 'FOUND', mode: 'live', licence: { licenceNumber: SANDBOX_NUMBERS.active, firstName: 'JANE', surname: 'DOE' } });
    expect(found.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.verify(SANDBOX_NUMBERS.notFound)).toMatchObject({ status: 'NOT_FOUND', licence: null, mode: 'live' });
    expect(await client.verify(SANDBOX_NUMBERS.tooMany)).toMatchObject({ status: 'TOO_MANY_RESULTS', licence: null, mode: 'live' });

    const refused = await client.verify('123').catch((failure: unknown) => failure);
    expect(refused).toBeInstanceOf(LicenceVerificationError);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'Licence number must be 16 digits', retryAfterSeconds: undefined });
    expect((refused as LicenceVerificationError).requestId).toEqual(expect.any(String));
    const unknownKey = await clientFor('lvs_nobody')
      .quota.usage()
      .catch((failure: unknown) => failure);
    expect(unknownKey).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    expect(await client.quota.usage()).toMatchObject({ used: 3, quota: 10, remaining: 7 });
    expect((await all(client.quota.history())).at(-1)).toMatchObject({ used: 3 });
    const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId]);
    expect(usage.rows).toEqual([{ used: 3 }]);
  });

  it('resolves PENDING with its key once waitSeconds have passed, and the same key resumes it to the final result, charged once', async () => {
    const { key, userId } = await t.createKey({ quota: 10 });
    const client = clientFor(key);
    await new SandboxAdmin(t.sandbox.url).setFault({ fault: 'none', latencyMs: 1300, licenceNumber: SANDBOX_NUMBERS.expired, times: 1 });
    const pending = await client.verify(SANDBOX_NUMBERS.expired, { waitSeconds: 0 });
    expect(pending).toMatchObject({ status: 'PENDING', licence: null, mode: 'live', retryAfterSeconds: expect.any(Number) });
    const resumed = await client.verify(SANDBOX_NUMBERS.expired, { idempotencyKey: pending.idempotencyKey });
    expect(resumed).toMatchObject({ status: 'FOUND', idempotencyKey: pending.idempotencyKey, licence: { licenceNumber: SANDBOX_NUMBERS.expired } });
    const charges = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1', [userId]);
    expect(charges.rows).toEqual([{ licence_number: SANDBOX_NUMBERS.expired }]);
  });

  it('verifies a holder and searches by name', async () => {
    const client = clientFor((await t.createKey()).key);
    expect(await client.verifyHolder({ licenceNumber: SANDBOX_NUMBERS.active, firstName: 'Jane', surname: 'Doe' })).toMatchObject({
      status: 'FOUND',
      mode: 'live',
    });
    expect(await client.search({ surname: 'HUGHES' })).toMatchObject({ status: 'FOUND', mode: 'live' });
  });

  it('lists verifications, gets one, exports them and verifies its receipt; a changed receipt is refused', async () => {
    const client = clientFor((await t.createKey()).key);
    const found = await client.verify(SANDBOX_NUMBERS.active);
    if (found.status !== 'FOUND') throw new Error(`expected FOUND, got ${found.status}`);
    const id = found.verificationId;
    const listed = await until(
      () => all(client.verifications.list({ limit: 1 })),
      (records) => records.length === 1,
    );
    expect(listed.map((record) => record.verificationId)).toEqual([id]);
    expect(await client.verifications.get(id)).toMatchObject({ verificationId: id, licenceNumber: SANDBOX_NUMBERS.active, status: 'FOUND' });
    const csv = await text(await client.verifications.export());
    expect(csv.trim().split('\n')).toHaveLength(2);
    expect(csv).toContain(id);

    const receipt = await client.verifications.receipt(id);
    const verified = await client.receipts.verify(receipt);
    expect(verified).toMatchObject({ verificationId: id, licenceNumber: SANDBOX_NUMBERS.active, status: 'FOUND', iss: t.baseUrl });
    const [header, payload, signature] = receipt.split('.');
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), status: 'NOT_FOUND' })).toString(
      'base64url',
    );
    await expect(client.receipts.verify(`${header}.${changed}.${signature}`)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
    await expect(client.receipts.verify(receipt, { issuer: 'https://elsewhere.test' })).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    const jwks = (await (await fetch(`${t.baseUrl}/.well-known/jwks.json`)).json()) as never;
    expect(await client.receipts.verify(receipt, { jwks })).toMatchObject({ verificationId: id });
  });

  it('creates a batch, waits for it, and reads its results as rows and as CSV', async () => {
    const client = clientFor((await t.createKey()).key);
    const batch = await client.batches.create([SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.notFound]);
    const done = await client.batches.waitFor(batch.id, { timeoutSeconds: 30 });
    expect(done).toMatchObject({ id: batch.id, status: 'COMPLETED', total: 2 });
    const rows = await all(client.batches.results(batch.id));
    expect(rows.map((row) => [row.licenceNumber, row.status])).toEqual([
      [SANDBOX_NUMBERS.active, 'FOUND'],
      [SANDBOX_NUMBERS.notFound, 'NOT_FOUND'],
    ]);
    expect((await client.batches.resultsCsv(batch.id)).trim().split('\n')).toHaveLength(3);
    const fromCsv = await client.batches.create(`licenceNumber\n${SANDBOX_NUMBERS.tooMany}\n`);
    expect((await all(client.batches.list())).map((listed) => listed.id).sort()).toEqual([batch.id, fromCsv.id].sort());
  });

  it('adds, lists and removes watched numbers, and pages the event feed', async () => {
    const client = clientFor((await t.createKey()).key);
    await client.watchlist.add(SANDBOX_NUMBERS.active, { reference: 'guard-1' });
    await client.watchlist.add(SANDBOX_NUMBERS.expired);
    expect((await all(client.watchlist.list({ limit: 1 }))).map((entry) => entry.licenceNumber)).toEqual([
      SANDBOX_NUMBERS.active,
      SANDBOX_NUMBERS.expired,
    ]);
    await client.watchlist.remove(SANDBOX_NUMBERS.expired);
    expect((await all(client.watchlist.list())).map((entry) => entry.licenceNumber)).toEqual([SANDBOX_NUMBERS.active]);
    const missing = await client.watchlist.remove(SANDBOX_NUMBERS.expired).catch((failure: unknown) => failure);
    expect(missing).toMatchObject({ status: 404, code: 'WATCH_NOT_FOUND' });
    expect(await all(client.events.list())).toEqual([]);
  });

  it('creates, lists and revokes keys', async () => {
    const client = clientFor((await t.createKey()).key);
    const created = await client.keys.create({ name: 'second' });
    expect((await all(client.keys.list())).map((listed) => listed.name)).toContain('second');
    await client.keys.revoke(created.id);
    expect((await all(client.keys.list())).map((listed) => listed.id)).not.toContain(created.id);
  });

  it('verifies a webhook the service sent, and refuses a changed or replayed one', async () => {
    const client = clientFor((await t.createKey()).key);
    const endpoint = await client.webhooks.create({ url: `${receiver.url}/client`, events: ['ping'] });
    receiver.useSecret('/client', endpoint.secret);
    expect((await all(client.webhooks.list())).map((listed) => listed.id)).toEqual([endpoint.id]);
    await client.webhooks.test(endpoint.id);
    const [delivery] = await until(
      () => receiver.to('/client'),
      (received) => received.length === 1,
    );
    expect(verifyWebhook(endpoint.secret, delivery.headers, delivery.raw)).toMatchObject({ type: 'ping', mode: 'live' });
    expect(() => verifyWebhook(endpoint.secret, delivery.headers, delivery.raw.replace('"ping"', '"pong"'))).toThrow('No matching signature found');
    const old = { ...delivery.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 301) };
    expect(() => verifyWebhook(endpoint.secret, old, delivery.raw)).toThrow('Message timestamp too old');
    expect((await all(client.webhooks.deliveries(endpoint.id))).length).toBe(1);
    expect(await client.webhooks.update(endpoint.id, { events: ['ping', 'watch.paused'] })).toMatchObject({
      id: endpoint.id,
      events: ['ping', 'watch.paused'],
    });
    await client.webhooks.remove(endpoint.id);
    expect(await all(client.webhooks.list())).toEqual([]);
  });

  it('simulates and restores a test licence with a test key, and says mode on every result', async () => {
    const client = clientFor((await t.createKey({ test: true })).key);
    expect(await client.test.simulate(SANDBOX_NUMBERS.active, { status: 'Revoked' })).toMatchObject({ mode: 'test' });
    expect(await client.verify(SANDBOX_NUMBERS.active)).toMatchObject({ status: 'FOUND', mode: 'test', licence: { status: 'Revoked' } });
    const revoked = await client.verify(SANDBOX_NUMBERS.active);
    if (revoked.status !== 'FOUND') throw new Error(`expected FOUND, got ${revoked.status}`);
    const receipt = await until(
      () => client.verifications.receipt(revoked.verificationId).catch(() => null),
      (signed) => signed !== null,
    );
    expect(await client.receipts.verify(receipt!, { mode: 'test' })).toMatchObject({ verificationId: revoked.verificationId, mode: 'test' });
    await expect(client.receipts.verify(receipt!)).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    expect(await client.test.restore(SANDBOX_NUMBERS.active)).toMatchObject({ mode: 'test' });
    expect(await client.verify(SANDBOX_NUMBERS.active)).toMatchObject({ status: 'FOUND', mode: 'test', licence: { status: 'Active' } });
    const live = await clientFor((await t.createKey()).key)
      .test.restore(SANDBOX_NUMBERS.active)
      .catch((failure: unknown) => failure);
    expect(live).toMatchObject({ status: 403, code: 'TEST_MODE_ONLY' });
  });
});

describe('@lvs/client retries', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } });
  });
  afterAll(() => t.close());

  it('retries 429 RATE_LIMITED after Retry-After with the same Idempotency-Key, and the service charges it once', async () => {
    const { key, userId } = await t.createKey({ quota: 10 });
    const sent: Parameters<typeof recordingFetch>[0] = [];
    const client = new LicenceVerificationClient({ apiKey: key, baseUrl: t.baseUrl, fetch: recordingFetch(sent) });
    const [first, second] = await Promise.all([client.verify(SANDBOX_NUMBERS.active), client.verify(SANDBOX_NUMBERS.revoked)]);
    expect([first.status, second.status]).toEqual(['FOUND', 'FOUND']);

    const limited = sent.filter((request) => request.status === 429);
    expect(limited).toHaveLength(1);
    for (const refused of limited) {
      expect(sent.filter((request) => request.idempotencyKey === refused.idempotencyKey).at(-1)).toMatchObject({ status: 200 });
    }
    expect(new Set(sent.map((request) => request.idempotencyKey)).size).toBe(2);
    const charges = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(charges.rows).toEqual(
      [{ licence_number: SANDBOX_NUMBERS.active }, { licence_number: SANDBOX_NUMBERS.revoked }].sort((a, b) =>
        a.licence_number.localeCompare(b.licence_number),
      ),
    );
    expect((await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userId])).rows).toEqual([{ used: 2 }]);
  });

  it('never retries 429 QUOTA_EXCEEDED', async () => {
    const { key } = await t.createKey({ quota: 0 });
    const sent: Parameters<typeof recordingFetch>[0] = [];
    const client = new LicenceVerificationClient({ apiKey: key, baseUrl: t.baseUrl, fetch: recordingFetch(sent) });
    await expect(client.verify(SANDBOX_NUMBERS.active)).rejects.toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED' });
    expect(sent.map((request) => request.status)).toEqual([429]);
  });
});
