import { Webhook } from 'standardwebhooks';
import { hashPassword } from '../../src/people/password-hash';
import { decryptSecret, encryptSecret, keyIdOf, secretKey } from '../../src/secrets/secret-box';
import { MANUAL_SEND_INTERVAL_MS } from '../../src/webhooks/webhook-limits';
import { ApiProcess } from '../support/api-process';
import { FormClient } from '../support/console-client';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { codeAt, MEMBER_PASSWORD } from '../support/member-join';
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
/** A member's TOTP secret in use, one waiting for its first code after a reset, and an organisation's client secret. */
const MEMBER_TOTP_SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU';
const PENDING_TOTP_SECRET = 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U';
const SSO_CLIENT_SECRET = 'client secret of the organisation';
type Counts = Partial<Record<'reencrypted' | 'alreadyCurrent' | 'undecryptable', number>>;
const counts = (found: Counts) => ({ reencrypted: 0, alreadyCurrent: 0, undecryptable: 0, changedMeanwhile: 0, ...found });
/** What the command prints besides the webhook signing secrets' counts (at the top level, as before it resealed more). */
const othersReport = (operators: Counts, memberTotp: Counts, singleSignOn: Counts) => ({
  operatorTotpSecrets: counts(operators),
  memberTotpSecrets: counts(memberTotp),
  singleSignOnSecrets: counts(singleSignOn),
});

// The API seals under K1 (WEBHOOK_SECRET_KEY, the one-key form); the worker, which opens the secrets to
// sign, and the admin command are started with each step of a rotation.
describe('rotating the keys that seal webhook signing secrets, TOTP secrets and single sign-on client secrets', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let key: string;
  let userId: string;

  const call = (method: string, path: string) => request(t.baseUrl, method, path, { headers: { 'x-api-key': key } });
  const storedSecrets = async (id: string) =>
    (await t.db.query<{ secret: string; previous_secret: string | null }>('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [id]))
      .rows[0];
  // reseal-secrets, or by its former name, which operators' scripts may still call.
  const reencrypt = (keys: string, command = 'reseal-secrets') => runAdminCli({ ...t.env, WEBHOOK_SECRET_KEY: '', WEBHOOK_SECRET_KEYS: keys }, command);

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
    ({ key, userId } = await t.createKey());
  });
  afterAll(async () => {
    t.clock.set(null);
    await t.close();
    await receiver.close();
  });

  it('keeps every delivery signed with K2,K1, moves every secret to K2 (members then sign in with K2 alone), signs with K2 alone, and records K3 alone as a failed attempt', async () => {
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
    // Members: one signed in with TOTP, one whose factor the operator reset (the new one waits for its first code),
    // and the organisation's single sign-on; each secret sealed under K1, as the API sealed them.
    const sealedUnderK1 = (secret: string) => encryptSecret(secret, secretKey(K1));
    await t.db.query(
      `INSERT INTO members (user_id, email, display_name, role, status, password_hash, totp_secret, totp_pending_secret, joined_at)
       VALUES ($1, 'tess@members.example', 'Tess', 'owner', 'active', $2, $3, NULL, now()),
              ($1, 'reese@members.example', 'Reese', 'viewer', 'active', $2, NULL, $4, now())`,
      [userId, await hashPassword(MEMBER_PASSWORD), sealedUnderK1(MEMBER_TOTP_SECRET), sealedUnderK1(PENDING_TOTP_SECRET)],
    );
    await t.db.query(
      `INSERT INTO member_sso (user_id, issuer, client_id, client_secret, domains, new_member_role)
       VALUES ($1, 'https://id.members.example', 'lvs-console', $2, ARRAY['members.example'], 'viewer')`,
      [userId, sealedUnderK1(SSO_CLIENT_SECRET)],
    );
    const storedMemberSecrets = async () =>
      (
        await t.db.query<{ email: string; totp_secret: string | null; totp_pending_secret: string | null }>(
          `SELECT email, totp_secret, totp_pending_secret FROM members WHERE user_id = $1 ORDER BY email`,
          [userId],
        )
      ).rows;
    const storedClientSecret = async () =>
      (await t.db.query<{ client_secret: string }>('SELECT client_secret FROM member_sso WHERE user_id = $1', [userId])).rows[0].client_secret;
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

    // Step 2: every secret (current, previous and the v1 one; operators' and members' TOTP secrets, the client
    // secret) moves to K2, by the command's former name; a second run has nothing to do.
    const moved = await reencrypt(`${K2},${K1}`, 'reencrypt-webhook-secrets');
    expect([moved.status, moved.stderr]).toEqual([0, '']);
    expect(JSON.parse(moved.stdout)).toEqual({
      ...counts({ reencrypted: 3 }),
      ...othersReport({ reencrypted: 1 }, { reencrypted: 2 }, { reencrypted: 1 }),
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
    const membersUnderK2 = await storedMemberSecrets();
    expect(membersUnderK2).toEqual([
      { email: 'reese@members.example', totp_secret: null, totp_pending_secret: expect.stringMatching(underK2) },
      { email: 'tess@members.example', totp_secret: expect.stringMatching(underK2), totp_pending_secret: null },
    ]);
    const clientSecretUnderK2 = await storedClientSecret();
    expect(decryptSecret(clientSecretUnderK2, [secretKey(K2)])).toBe(SSO_CLIENT_SECRET);
    const again = await reencrypt(`${K2},${K1}`);
    expect(JSON.parse(again.stdout)).toEqual({
      ...counts({ alreadyCurrent: 3 }),
      ...othersReport({ alreadyCurrent: 1 }, { alreadyCurrent: 2 }, { alreadyCurrent: 1 }),
    });
    expect([await storedTotp(), await storedMemberSecrets(), await storedClientSecret()]).toEqual([totpUnderK2, membersUnderK2, clientSecretUnderK2]);

    // An API process with K2 alone: the member signs in with password and TOTP code, and the member whose factor
    // was reset is shown the waiting key to set up, both opened with K2.
    const api = await ApiProcess.start({ ...t.env, WEBHOOK_SECRET_KEY: '', WEBHOOK_SECRET_KEYS: K2 });
    try {
      const signIn = async (email: string) => {
        const client = new FormClient(api.baseUrl);
        const _csrf = await client.tokenOf('/console/sign-in');
        const password = await client.send('POST', '/console/sign-in', { _csrf, email, password: MEMBER_PASSWORD });
        expect([email, password.status, password.headers.get('location')]).toEqual([email, 303, '/console/sign-in/code']);
        return { client, _csrf };
      };
      const tess = await signIn('tess@members.example');
      const code = await tess.client.send('POST', '/console/sign-in/code', { _csrf: tess._csrf, code: codeAt(MEMBER_TOTP_SECRET, Date.now()) });
      expect([code.status, code.headers.get('location')]).toEqual([303, '/console/overview']);
      expect((await tess.client.send('GET', '/console/overview')).status).toBe(200);
      const reese = await signIn('reese@members.example');
      const setUp = await (await reese.client.send('GET', '/console/sign-in/code')).text();
      expect(/id="totp-secret" class="secret">([A-Z2-7]+)</.exec(setUp)?.[1]).toBe(PENDING_TOTP_SECRET);
    } finally {
      await api.stop();
    }

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
      ...counts({ undecryptable: 3 }),
      ...othersReport({ undecryptable: 1 }, { undecryptable: 2 }, { undecryptable: 1 }),
    });
    expect([await storedTotp(), await storedMemberSecrets(), await storedClientSecret()]).toEqual([totpUnderK2, membersUnderK2, clientSecretUnderK2]);
  });
});
