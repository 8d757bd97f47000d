import { createHmac } from 'node:crypto';
import { encryptSecret, keyIdOf, secretKey } from '../../src/secrets/secret-box';
import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { SandboxAdmin, sandboxPerson } from '../support/sandbox-admin';
import { databaseText, redisText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';
import { WorkerProcess } from '../support/worker-process';

const CYCLE_SECONDS = 2;
const OLD_KEY = 'a1'.repeat(32);
const NEW_KEY = 'b2'.repeat(32);

/** The id a seal made with `keyHex` carries: the key id of the sealing key derived from it. */
const sealKeyIdOf = (keyHex: string) => keyIdOf(createHmac('sha256', Buffer.from(keyHex, 'hex')).update('seal').digest('hex'));

/**
 * Rotating HOLDER_DATA_KEYS on real processes: the API seals dates of birth with the old key, the worker is
 * restarted with a new ring, and the successor search still runs and its events still go out.
 */
describe('holder data key rotation', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;
  let worker: WorkerProcess;

  beforeAll(async () => {
    t = await startTestApp({
      env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', HOLDER_DATA_KEY: OLD_KEY },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const call = (apiKey: string, method: string, path: string, body?: object): Promise<TestResponse> =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': apiKey }, body });

  async function entries(apiKey: string) {
    return (
      (await call(apiKey, 'GET', '/v1/watchlist?limit=1000')).body as { items: { licenceNumber: string; checkedAt: string | null; state: string }[] }
    ).items;
  }

  /** A user with its own webhook path watching `licenceNumber` with a holder's date of birth, its baseline recorded. */
  async function watchWithDateOfBirth(path: string, licenceNumber: string, holder: object): Promise<{ key: string; userId: string }> {
    const { key, userId } = await t.createKey({ quota: 10 });
    const endpoint = await call(key, 'POST', '/v1/webhooks', { url: `${receiver.url}${path}` });
    expect(endpoint.status).toBe(201);
    receiver.useSecret(path, (endpoint.body as { secret: string }).secret);
    expect((await call(key, 'PUT', `/v1/watchlist/${licenceNumber}`, { reference: path, holder, followSuccessor: true })).status).toBe(201);
    await until(
      () => entries(key),
      (items) => items.some((item) => item.licenceNumber === licenceNumber && item.checkedAt !== null),
    );
    return { key, userId };
  }

  async function restartWorker(env: Record<string, string>): Promise<void> {
    await worker?.stop();
    worker = await t.startWorker({ HOLDER_DATA_KEY: '', ...env });
  }

  const storedSeal = async (userId: string, licenceNumber: string) =>
    (
      await t.db.query<{ sealed: string }>('SELECT date_of_birth_sealed AS sealed FROM watch_entries WHERE user_id = $1 AND licence_number = $2', [
        userId,
        licenceNumber,
      ])
    ).rows[0].sealed;

  const delivered = (path: string) =>
    receiver.to(path).map((webhook) => ({ type: webhook.body.type, data: webhook.body.data, verified: webhook.verified }));

  it("falls back to a search by name when the worker's ring lacks the old key, and the events still go out", async () => {
    const OLD = '1340000000000017';
    const NEW = '1340000000000025';
    const BORN = '1979-11-02';
    await sandbox.addLicence(sandboxPerson(OLD, 'MARTA', 'KOWALSKA', BORN));
    await restartWorker({ HOLDER_DATA_KEYS: OLD_KEY });
    const { key, userId } = await watchWithDateOfBirth('/lost-key', OLD, { firstName: 'Marta', surname: 'Kowalska', dateOfBirth: BORN });
    expect((await storedSeal(userId, OLD)).split('.').slice(0, 2)).toEqual(['v3', sealKeyIdOf(OLD_KEY)]);

    // The old key is gone from the worker's ring before anything was resealed.
    await restartWorker({ HOLDER_DATA_KEYS: NEW_KEY });
    await sandbox.addLicence(sandboxPerson(NEW, 'MARTA', 'KOWALSKA', BORN));
    await sandbox.changeLicence(OLD, { status: 'Replaced', statusReason: 'Replaced by a new licence card' });

    await until(
      () => delivered('/lost-key'),
      (events) => events.some((event) => event.type === 'licence.replaced'),
      4 * CYCLE_SECONDS * 1000 + 15_000,
    );
    expect(delivered('/lost-key')).toEqual([
      {
        type: 'licence.replaced',
        verified: true,
        data: {
          licenceNumber: OLD,
          reference: '/lost-key',
          previous: expect.objectContaining({ licenceNumber: OLD, status: 'Active' }),
          current: expect.objectContaining({ licenceNumber: OLD, status: 'Replaced' }),
          successorLicenceNumber: NEW,
          confidence: 'NAME_ONLY',
        },
      },
    ]);
    // Without the date the successor is named but not watched: following it needs the date of birth.
    expect((await entries(key)).map((item) => item.licenceNumber)).toEqual([OLD]);
    expect(worker.log).toContain(`A date of birth watching ************${OLD.slice(-4)} cannot be opened`);
    expect(worker.log).toContain('cannot be opened with HOLDER_DATA_KEYS: searching by name only');
    expect(worker.log).not.toContain(BORN);
  }, 90_000);

  it('reseals every date of birth to the first key, old formats included, and then runs without the old key', async () => {
    const OLD = '1350000000000019';
    const NEW = '1350000000000027';
    const BORN = '1988-08-18';
    await sandbox.addLicence(sandboxPerson(OLD, 'OLGA', 'IVANOVA', BORN));
    await restartWorker({ HOLDER_DATA_KEYS: `${NEW_KEY},${OLD_KEY}` });
    const { key, userId } = await watchWithDateOfBirth('/resealed', OLD, { firstName: 'Olga', surname: 'Ivanova', dateOfBirth: BORN });
    // A batch row's date sealed by the API with the old key, and the watcher's date rewritten as it was sealed
    // before this format existed (no key ring, no associated data).
    const { key: batchKey } = await t.createKey();
    const batch = await call(batchKey, 'POST', '/v1/batches', {
      items: [{ licenceNumber: OLD, firstName: 'Olga', surname: 'Ivanova', dateOfBirth: BORN }],
    });
    expect([200, 202]).toContain(batch.status);
    const legacy = encryptSecret(BORN, secretKey(createHmac('sha256', Buffer.from(OLD_KEY, 'hex')).update('seal').digest('hex')));
    expect(legacy.startsWith('v2.')).toBe(true);
    await t.db.query('UPDATE watch_entries SET date_of_birth_sealed = $3 WHERE user_id = $1 AND licence_number = $2', [userId, OLD, legacy]);
    const { rows: before } = await t.db.query<{ sealed: string }>(
      `SELECT date_of_birth_sealed AS sealed FROM watch_entries WHERE date_of_birth_sealed IS NOT NULL
       UNION ALL SELECT date_of_birth_sealed FROM batch_items WHERE date_of_birth_sealed IS NOT NULL`,
    );
    const stale = before.filter((row) => !row.sealed.startsWith(`v3.${sealKeyIdOf(NEW_KEY)}.`)).length;
    // This test's two (the earlier test's entry, sealed with the old key, is stale too).
    expect(stale).toBeGreaterThanOrEqual(2);
    const batchSeal = async () =>
      (
        await t.db.query<{ sealed: string }>('SELECT date_of_birth_sealed AS sealed FROM batch_items WHERE batch_id = $1', [
          (batch.body as { id: string }).id,
        ])
      ).rows[0].sealed;
    expect((await batchSeal()).split('.').slice(0, 2)).toEqual(['v3', sealKeyIdOf(OLD_KEY)]);

    const env = { ...t.env, HOLDER_DATA_KEY: '', HOLDER_DATA_KEYS: `${NEW_KEY},${OLD_KEY}` };
    const resealed = await runAdminCli(env, 'reseal-holder-data');
    expect([resealed.status, resealed.stderr]).toEqual([0, '']);
    expect(JSON.parse(resealed.stdout)).toEqual({ resealed: stale, alreadyCurrent: before.length - stale, unopenable: 0, changedMeanwhile: 0 });
    const again = await runAdminCli(env, 'reseal-holder-data');
    expect(JSON.parse(again.stdout)).toEqual({ resealed: 0, alreadyCurrent: before.length, unopenable: 0, changedMeanwhile: 0 });
    const { rows: after } = await t.db.query<{ sealed: string }>(
      `SELECT date_of_birth_sealed AS sealed FROM watch_entries WHERE date_of_birth_sealed IS NOT NULL
       UNION ALL SELECT date_of_birth_sealed FROM batch_items WHERE date_of_birth_sealed IS NOT NULL`,
    );
    expect(after.filter((row) => !row.sealed.startsWith(`v3.${sealKeyIdOf(NEW_KEY)}.`))).toEqual([]);
    expect((await batchSeal()).split('.').slice(0, 2)).toEqual(['v3', sealKeyIdOf(NEW_KEY)]);

    // The old key is dropped: the date still opens, so the successor is found by name and date, and followed.
    await restartWorker({ HOLDER_DATA_KEYS: NEW_KEY });
    await sandbox.addLicence(sandboxPerson(NEW, 'OLGA', 'IVANOVA', BORN));
    await sandbox.changeLicence(OLD, { status: 'Replaced', statusReason: 'Replaced by a new licence card' });
    await until(
      () => delivered('/resealed'),
      (events) => events.some((event) => event.type === 'licence.replaced'),
      4 * CYCLE_SECONDS * 1000 + 15_000,
    );
    expect(delivered('/resealed')).toEqual([
      expect.objectContaining({
        type: 'licence.replaced',
        verified: true,
        data: expect.objectContaining({ successorLicenceNumber: NEW, confidence: 'NAME_AND_DATE_OF_BIRTH' }),
      }),
    ]);
    expect((await entries(key)).map((item) => item.licenceNumber)).toEqual([OLD, NEW]);
    // The successor's entry has its own seal, bound to its own row.
    const successorSeal = await storedSeal(userId, NEW);
    expect(successorSeal.split('.').slice(0, 2)).toEqual(['v3', sealKeyIdOf(NEW_KEY)]);
    expect(successorSeal).not.toBe(await storedSeal(userId, OLD));
    expect(worker.log).not.toContain('cannot be opened');

    expect(await redisText(t.redis, t.redisPrefix)).not.toContain(BORN);
    expect(await databaseText(t.db)).not.toContain(BORN);
    expect([...t.logLines, ...t.workers.map((each) => each.log)].join('\n')).not.toContain(BORN);
  }, 120_000);
});
