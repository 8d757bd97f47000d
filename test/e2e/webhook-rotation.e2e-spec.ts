import { Webhook } from 'standardwebhooks';
import { decryptSecret, encryptSecret, keyIdOf, secretKey } from '../../src/secrets/secret-box';
import { MANUAL_SEND_INTERVAL_MS } from '../../src/webhooks/webhook-limits';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { WorkerProcess } from '../support/worker-process';

const [K1, K2, K3] = ['11', '22', '33'].map((byte) => byte.repeat(32));
const UNDECRYPTABLE = 'Signing secret cannot be decrypted with the configured WEBHOOK_SECRET_KEYS';
// A secret as the format before key ids ("v1", no key id) stored it under K1: such rows must stay readable.
const LEGACY_SEALED = 'v1.fvHRvyTjRo6ePkjI._6B8XWP28jMuiZhAmFpijg.3gg1naKsQZKufI_JbxthG86vp0aqdAeJ9Y8MMvDpNtZjBSVDcqE';
const LEGACY_SECRET = 'whsec_bGVnYWN5IHNlY3JldCBmb3IgdGVzdHM=';
/** An operator's TOTP secret (base32), sealed with the same key ring as the signing secrets. */
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const operatorReport = (counts: Partial<Record<'reencrypted' | 'alreadyCurrent' | 'undecryptable', number>>) => ({
  operatorTotpSecrets: { reencrypted: 0, alreadyCurrent: 0, undecryptable: 0, changedMeanwhile: 0, ...counts },
});

// The API seals under K1 (WEBHOOK_SECRET_KEY, the one-key form); the worker, which opens the secrets to
// sign, and the admin command are started with each step of a rotation.
describe('webhooks: rotating the keys that encrypt signing secrets', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let key: string;

  const call = (method: string, path: string) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key } });
  const storedSecrets = async (id: string) =>
    (await t.db.query<{ secret: string; previous_secret: string | null }>('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [id]))
      .rows[0];
  const reencrypt = (keys: string) => runAdminCli({ ...t.env, WEBHOOK_SECRET_KEY: '', WEBHOOK_SECRET_KEYS: keys }, 'reencrypt-webhook-secrets');

  /** Pings each endpoint (the clock moved past the 10 s manual-send interval) and returns what the receiver got. */
  async function pingAll(endpoints: Record<string, string>) {
    t.clock.travelTo(new Date(t.clock.now().getTime() + MANUAL_SEND_INTERVAL_MS));
    const before = Object.fromEntries(Object.keys(endpoints).map((path) => [path, receiver.to(path).length]));
    for (const id of Object.values(endpoints)) expect((await call('POST', `/v1/webhooks/${id}/test`)).status).toBe(202);
    return Promise.all(
      Object.keys(endpoints).map(async (path) =>
        (
          await until(
            () => receiver.to(path),
            (got) => got.length === before[path] + 1,
          )
        ).at(-1)!,
      ),
    );
  }

  async function restartWorker(keys: string): Promise<WorkerProcess> {
    await Promise.all(t.workers.map((worker) => worker.stop()));
    return t.startWorker({ WEBHOOK_SECRET_KEY: '', WEBHOOK_SECRET_KEYS: keys });
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_SECRET_KEY: K1, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0' } });
    receiver = await WebhookReceiver.start();
    ({ key } = await t.createKey());
  });
  afterAll(async () => {
    t.clock.set(null);
    await t.close();
    await receiver.close();
  });

  it('keeps every delivery signed with K2,K1, moves every secret to K2, signs with K2 alone, and records K3 alone as a failed attempt', async () => {
    const endpoints: Record<string, string> = {};
    const secrets: Record<string, string[]> = {};
    for (const path of ['/rotated', '/legacy']) {
      const created = await request(t.baseUrl, 'POST', '/v1/webhooks', { headers: { 'x-api-key': key }, body: { url: `${receiver.url}${path}` } });
      expect(created.status).toBe(201);
      endpoints[path] = (created.body as { id: string }).id;
      secrets[path] = [(created.body as { secret: string }).secret];
    }
    // '/rotated' has a current and a previous secret, both sealed under K1 with K1's id.
    const rotated = await call('POST', `/v1/webhooks/${endpoints['/rotated']}/rotate-secret`);
    secrets['/rotated'].unshift((rotated.body as { secret: string }).secret);
    const underK1 = new RegExp(`^v2\\.${keyIdOf(K1)}\\.`);
    expect(await storedSecrets(endpoints['/rotated'])).toEqual({
      secret: expect.stringMatching(underK1),
      previous_secret: expect.stringMatching(underK1),
    });
    // An operator who joined (TOTP secret sealed under K1) and one invited who has not (no secret yet).
    const { rows: operators } = await t.db.query<{ id: string }>(
      `INSERT INTO operators (email, display_name, role, totp_secret, totp_confirmed_at)
       VALUES ('joined@operators.example', 'Joined', 'operator', $1, now()), ('invited@operators.example', 'Invited', 'support', NULL, NULL)
       RETURNING id`,
      [encryptSecret(TOTP_SECRET, secretKey(K1))],
    );
    const storedTotp = async () =>
      (await t.db.query<{ totp_secret: string | null }>('SELECT totp_secret FROM operators WHERE id = $1', [operators[0].id])).rows[0].totp_secret!;
    const totpUnderK1 = await storedTotp();
    // '/legacy' holds a secret stored before ciphertexts named their key.
    await t.db.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [endpoints['/legacy'], LEGACY_SEALED]);
    secrets['/legacy'] = [LEGACY_SECRET];
    receiver.useSecret('/rotated', secrets['/rotated'][0]);
    receiver.useSecret('/legacy', LEGACY_SECRET);
    const signedByAll = (hook: { path: string; raw: string; headers: Record<string, string> }) =>
      secrets[hook.path].every((secret) => {
        new Webhook(secret).verify(hook.raw, hook.headers); // throws when this secret's signature is missing
        return true;
      });

    // Step 1: the new key first, the old one still listed.
    await restartWorker(`${K2},${K1}`);
    for (const hook of await pingAll(endpoints)) expect([hook.path, hook.verified, signedByAll(hook)]).toEqual([hook.path, true, true]);

    // Step 2: every secret (current, previous and the v1 one) moves to K2; a second run has nothing to do.
    const moved = await reencrypt(`${K2},${K1}`);
    expect([moved.status, moved.stderr]).toEqual([0, '']);
    expect(JSON.parse(moved.stdout)).toEqual({
      reencrypted: 3,
      alreadyCurrent: 0,
      undecryptable: 0,
      changedMeanwhile: 0,
      ...operatorReport({ reencrypted: 1 }),
    });
    const underK2 = new RegExp(`^v2\\.${keyIdOf(K2)}\\.`);
    // The operator's TOTP secret moved too: a new sealed value, under K2, that K2 alone opens to the same secret.
    const totpUnderK2 = await storedTotp();
    expect(totpUnderK2).not.toBe(totpUnderK1);
    expect(totpUnderK2).toMatch(underK2);
    expect(decryptSecret(totpUnderK2, [secretKey(K2)])).toBe(TOTP_SECRET);
    expect(await storedSecrets(endpoints['/rotated'])).toEqual({
      secret: expect.stringMatching(underK2),
      previous_secret: expect.stringMatching(underK2),
    });
    expect(await storedSecrets(endpoints['/legacy'])).toEqual({ secret: expect.stringMatching(underK2), previous_secret: null });
    const again = await reencrypt(`${K2},${K1}`);
    expect(JSON.parse(again.stdout)).toEqual({
      reencrypted: 0,
      alreadyCurrent: 3,
      undecryptable: 0,
      changedMeanwhile: 0,
      ...operatorReport({ alreadyCurrent: 1 }),
    });
    expect(await storedTotp()).toBe(totpUnderK2);

    // Step 3: the old key dropped.
    await restartWorker(K2);
    for (const hook of await pingAll(endpoints)) expect([hook.path, hook.verified, signedByAll(hook)]).toEqual([hook.path, true, true]);

    // A key that opens nothing: the attempt is recorded as failed with the reason, and nothing is sent.
    await restartWorker(K3);
    const received = receiver.received.length;
    t.clock.travelTo(new Date(t.clock.now().getTime() + MANUAL_SEND_INTERVAL_MS));
    const ping = await call('POST', `/v1/webhooks/${endpoints['/rotated']}/test`);
    expect(ping.status).toBe(202);
    const deliveryId = (ping.body as { id: string }).id;
    const status = async () => (await t.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [deliveryId])).rows[0].status;
    await until(status, (value) => value === 'FAILED', 10_000);
    const attempts = await t.db.query('SELECT attempt, response_status, error, next_attempt_at FROM webhook_attempts WHERE delivery_id = $1', [
      deliveryId,
    ]);
    expect(attempts.rows).toEqual([{ attempt: 1, response_status: null, error: UNDECRYPTABLE, next_attempt_at: null }]);
    expect(receiver.received).toHaveLength(received);
    const undecryptable = await reencrypt(K3);
    expect(JSON.parse(undecryptable.stdout)).toEqual({
      reencrypted: 0,
      alreadyCurrent: 0,
      undecryptable: 3,
      changedMeanwhile: 0,
      ...operatorReport({ undecryptable: 1 }),
    });
    expect(await storedTotp()).toBe(totpUnderK2);
  });
});
