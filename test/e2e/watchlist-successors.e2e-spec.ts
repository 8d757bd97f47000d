import { request, TestResponse } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { SandboxAdmin, sandboxPerson } from '../support/sandbox-admin';
import { databaseText, redisText } from '../support/stored-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const CYCLE_SECONDS = 2;

interface WatchEntry {
  licenceNumber: string;
  reference: string | null;
  state: string;
  checkedAt: string | null;
  successorLicenceNumber?: string;
}

describe('watchlist successors: licence.replaced when a watched licence is replaced by a new one', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { WATCH_RECHECK_SECONDS: String(CYCLE_SECONDS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', HOLDER_DATA_KEY: 'e2'.repeat(32) },
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

  async function entries(apiKey: string): Promise<WatchEntry[]> {
    return ((await call(apiKey, 'GET', '/v1/watchlist?limit=1000')).body as { items: WatchEntry[] }).items;
  }

  /** A user with a webhook endpoint of its own path, watching `licenceNumber` with this body. */
  async function watcher(path: string, licenceNumber: string, body: object): Promise<string> {
    const { key } = await t.createKey({ quota: 10 });
    const endpoint = await call(key, 'POST', '/v1/webhooks', { url: `${receiver.url}${path}` });
    expect(endpoint.status).toBe(201);
    receiver.useSecret(path, (endpoint.body as { secret: string }).secret);
    expect((await call(key, 'PUT', `/v1/watchlist/${licenceNumber}`, body)).status).toBe(201);
    return key;
  }

  /** Waits until the first re-check recorded the watched number's baseline for this user. */
  async function baseline(apiKey: string, licenceNumber: string): Promise<void> {
    await until(
      () => entries(apiKey),
      (items) => items.some((item) => item.licenceNumber === licenceNumber && item.checkedAt !== null),
    );
  }

  it('sends exactly one signed licence.replaced per watching user, and follows the successor with a date of birth', async () => {
    const OLD = '1320000000000011';
    const NEW = '1320000000000029';
    const BORN = '1991-02-03';
    await sandbox.addLicence(sandboxPerson(OLD, 'PETRA', 'NOVAK', BORN));
    const follower = await watcher('/follower', OLD, {
      reference: 'guard-7',
      holder: { firstName: 'Petra', surname: 'Novak', dateOfBirth: BORN },
      followSuccessor: true,
    });
    const byName = await watcher('/by-name', OLD, { reference: 'door-3' });
    await baseline(follower, OLD);
    await baseline(byName, OLD);

    // The card is replaced: a new Active licence for the same person, the old one Replaced.
    await sandbox.addLicence(sandboxPerson(NEW, 'PETRA', 'NOVAK', BORN));
    await sandbox.changeLicence(OLD, { status: 'Replaced', statusReason: 'Replaced by a new licence card' });

    const replaced = (path: string) => receiver.to(path).filter((webhook) => webhook.body.type === 'licence.replaced');
    await until(
      () => [replaced('/follower').length, replaced('/by-name').length],
      ([follower, byName]) => follower >= 1 && byName >= 1,
      4 * CYCLE_SECONDS * 1000 + 10_000,
    );
    for (const [path, reference, confidence] of [
      ['/follower', 'guard-7', 'NAME_AND_DATE_OF_BIRTH'],
      ['/by-name', 'door-3', 'NAME_ONLY'],
    ] as const) {
      const [event, ...more] = replaced(path);
      expect(more).toEqual([]);
      expect(event.verified).toBe(true);
      expect(event.body.data).toEqual({
        licenceNumber: OLD,
        reference,
        previous: expect.objectContaining({ licenceNumber: OLD, status: 'Active' }),
        current: expect.objectContaining({ licenceNumber: OLD, status: 'Replaced' }),
        successorLicenceNumber: NEW,
        confidence,
      });
      // licence.replaced stands for the status change: no false alarm beside it.
      expect(receiver.to(path).filter((webhook) => webhook.body.type === 'licence.status_changed')).toEqual([]);
    }

    const followed = await entries(follower);
    expect(followed.map(({ licenceNumber, reference, state }) => [licenceNumber, reference, state])).toEqual([
      [OLD, 'guard-7', 'ACTIVE'],
      [NEW, 'guard-7', 'ACTIVE'],
    ]);
    expect(followed[0].successorLicenceNumber).toBe(NEW);
    const notFollowed = await entries(byName);
    expect(notFollowed.map((item) => [item.licenceNumber, item.successorLicenceNumber])).toEqual([[OLD, NEW]]);
    expect((await sandbox.counts()).bySurname.NOVAK).toBeGreaterThanOrEqual(2); // one search per stored date, one by name

    // The date of birth is kept sealed: never in clear in Redis, PostgreSQL or the logs.
    expect(await redisText(t.redis, t.redisPrefix)).not.toContain(BORN);
    expect(await databaseText(t.db)).not.toContain(BORN);
    expect([...t.logLines, ...t.workers.map((worker) => worker.log)].join('\n')).not.toContain(BORN);
  }, 60_000);

  it('with two candidates sends no licence.replaced, and the status change goes out as before', async () => {
    const OLD = '1330000000000013';
    const BORN = '1984-06-07';
    await sandbox.addLicence(sandboxPerson(OLD, 'IVAN', 'PETROV', BORN));
    const key = await watcher('/two', OLD, { holder: { firstName: 'Ivan', surname: 'Petrov', dateOfBirth: BORN }, followSuccessor: true });
    await baseline(key, OLD);

    await sandbox.addLicence(sandboxPerson('1330000000000021', 'IVAN', 'PETROV', BORN));
    await sandbox.addLicence(sandboxPerson('1330000000000039', 'IVAN', 'PETROV', BORN));
    await sandbox.changeLicence(OLD, { status: 'Expired' });

    await until(
      () => receiver.to('/two').filter((webhook) => webhook.body.type === 'licence.status_changed'),
      (events) => events.length >= 1,
      4 * CYCLE_SECONDS * 1000 + 10_000,
    );
    expect(receiver.to('/two').map((webhook) => webhook.body.type)).not.toContain('licence.replaced');
    expect((await entries(key)).map((item) => [item.licenceNumber, item.successorLicenceNumber])).toEqual([[OLD, undefined]]);
  }, 60_000);

  it('does not follow the successor into a full watchlist; licence.replaced still names it', async () => {
    const OLD = '1340000000000018';
    const NEW = '1340000000000026';
    const BORN = '1979-12-01';
    await sandbox.addLicence(sandboxPerson(OLD, 'NINA', 'SOKOL', BORN));
    const key = await watcher('/full', OLD, { holder: { firstName: 'Nina', surname: 'Sokol', dateOfBirth: BORN }, followSuccessor: true });
    const [{ user_id: userId }] = (await t.db.query<{ user_id: string }>('SELECT user_id FROM watch_entries WHERE licence_number = $1', [OLD])).rows;
    // The cap is what the watchlist holds now: no room for the successor.
    expect((await runAdminCli(t.env, 'set-watch-limit', userId, '1')).status).toBe(0);
    await baseline(key, OLD);

    await sandbox.addLicence(sandboxPerson(NEW, 'NINA', 'SOKOL', BORN));
    await sandbox.changeLicence(OLD, { status: 'Replaced', statusReason: 'Replaced by a new licence card' });
    const [event] = await until(
      () => receiver.to('/full').filter((webhook) => webhook.body.type === 'licence.replaced'),
      (events) => events.length >= 1,
      4 * CYCLE_SECONDS * 1000 + 10_000,
    );
    expect(event.body.data).toMatchObject({ licenceNumber: OLD, successorLicenceNumber: NEW, confidence: 'NAME_AND_DATE_OF_BIRTH' });
    expect((await entries(key)).map((item) => [item.licenceNumber, item.successorLicenceNumber])).toEqual([[OLD, NEW]]);
  }, 60_000);
});
