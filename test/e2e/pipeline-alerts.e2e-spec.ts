import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { AlertReceiver } from '../support/alert-receiver';
import { verify } from '../support/http';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const REGISTER_LATENCY_MS = 2500;

// Its own app: the alert episodes are shared by every process of one Redis prefix.
describe('operator alerts of the pipeline: a lookup backlog and a lagging evidence drain, each sent signed, retried after a 500', () => {
  let t: TestApp;
  let receiver: AlertReceiver;

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    t = await startTestApp({
      env: {
        OPERATOR_ALERT_URL: receiver.url,
        OPERATOR_ALERT_SECRET: receiver.secret,
        ALERT_BACKLOG_SECONDS: '2',
        ALERT_EVIDENCE_LAG_SECONDS: '2',
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1',
        // One lookup at a time, each slow: the next ones wait in the queue.
        WORKER_CONCURRENCY: '1',
        REGISTER_REQUEST_TIMEOUT_MS: '6000',
      },
    });
    await t.startWorker();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const alertsOf = (type: string) => receiver.alerts().filter((alert) => alert.type === type);

  it('sends queue.backlog when the oldest waiting lookup passes ALERT_BACKLOG_SECONDS, again after a 500, and its end once the queue empties', async () => {
    const { key } = await t.createKey();
    const sandbox = new SandboxAdmin(t.sandbox.url);
    await sandbox.setFault({ fault: 'none', latencyMs: REGISTER_LATENCY_MS });
    receiver.answerNext(500);
    const asked = Promise.all([SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.expired, SANDBOX_NUMBERS.revoked].map((number) => verify(t.baseUrl, key, number)));

    // The first delivery is answered 500; the same alert (one webhook-id) comes again a second later, and is taken.
    const [refused, retried] = await until(
      () => receiver.answers(),
      (answers) => answers.length >= 2,
      15_000,
    );
    expect(refused.status).toBe(500);
    expect(retried).toEqual({ id: refused.id, status: 200 });
    const [first, second] = alertsOf('queue.backlog');
    expect(first).toEqual({ type: 'queue.backlog', timestamp: expect.any(String), data: { state: 'started', since: expect.any(String) } });
    expect(second).toEqual(first);

    await asked;
    await sandbox.clearFaults();
    await until(
      () => alertsOf('queue.backlog').length,
      (count) => count === 3,
      15_000,
    );
    expect(alertsOf('queue.backlog')[2]).toEqual({ type: 'queue.backlog', timestamp: expect.any(String), data: { state: 'ended' } });
  });

  it('sends evidence.drain_lagging while verification records cannot reach PostgreSQL, and its end once they do', async () => {
    const { key } = await t.createKey();
    const before = receiver.count;
    // A database that stalls the drain: the test holds the records' table locked in an open transaction.
    await t.db.query('BEGIN');
    await t.db.query('LOCK TABLE verification_records IN ACCESS EXCLUSIVE MODE');
    try {
      expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.active)).status).toBe(200);
      await until(
        () => alertsOf('evidence.drain_lagging').length,
        (count) => count === 1,
        15_000,
      );
      const [started] = alertsOf('evidence.drain_lagging');
      expect(started).toEqual({
        type: 'evidence.drain_lagging',
        timestamp: expect.any(String),
        data: { state: 'started', oldestWaitingSeconds: expect.any(Number) },
      });
      expect(started.data.oldestWaitingSeconds).toBeGreaterThanOrEqual(2);
    } finally {
      await t.db.query('ROLLBACK');
    }
    await until(
      () => alertsOf('evidence.drain_lagging').length,
      (count) => count === 2,
      20_000,
    );
    expect(alertsOf('evidence.drain_lagging')[1]).toEqual({ type: 'evidence.drain_lagging', timestamp: expect.any(String), data: { state: 'ended' } });
    // One start and one end: nothing else was sent meanwhile.
    expect(receiver.count).toBe(before + 2);
  });
});
