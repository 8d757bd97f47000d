import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import { READINESS_MAX_AGE_MS } from '../../src/health/readiness-freshness';
import { AlertReceiver } from '../support/alert-receiver';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { series } from '../support/metrics-text';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const CANARY = SANDBOX_NUMBERS.active;
const PERIOD_SECONDS = 2;
const DOWN_SECONDS = 3;

// Its own app: the canary's baseline, the breaker and the alert episodes are shared by every process of one Redis prefix.
describe('register watch: canaries and operator alerts', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: AlertReceiver;
  let workerUrl: string;

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    t = await startTestApp({
      env: {
        REGISTER_CANARY_NUMBERS: CANARY,
        REGISTER_CANARY_SECONDS: String(PERIOD_SECONDS),
        OPERATOR_ALERT_URL: receiver.url,
        OPERATOR_ALERT_SECRET: receiver.secret,
        ALERT_REGISTER_DOWN_SECONDS: String(DOWN_SECONDS),
        REGISTER_BREAKER_FAILURES: '1',
        REGISTER_BREAKER_COOLDOWN_SECONDS: '1',
        LOOKUP_ATTEMPTS: '1',
      },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
    const worker = await t.startWorker();
    workerUrl = `http://127.0.0.1:${worker.log.match(/Operators' listener .* on [\d.]+:(\d+)/)![1]}`;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const alerts = () => receiver.alerts();
  const alertTypes = () => alerts().map((alert) => alert.type);
  /** The register's part of readiness, as it stands now: an answer may come from a check up to READINESS_MAX_AGE_MS old. */
  const register = async () => {
    await sleep(READINESS_MAX_AGE_MS + 50);
    const ready = await request(t.baseUrl, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    return (ready.body as { info: { registerBreaker: { register: string; state: string } } }).info.registerBreaker;
  };
  const workerMetrics = async () => (await fetch(`${workerUrl}/metrics`)).text();
  /** Waits for `periods` more canary lookups to reach the register. */
  const periods = async (count: number) => {
    const seen = await sandbox.requestsFor(CANARY);
    await until(
      () => sandbox.requestsFor(CANARY),
      (requests) => requests >= seen + count,
      (count + 2) * PERIOD_SECONDS * 1000,
    );
  };

  it('fails a canary whose holder surname changed within one period, alerts once per episode, and shows drifted until acknowledged', async () => {
    await periods(2); // a baseline, then a good answer
    expect(await register()).toMatchObject({ register: 'ok' });
    expect(receiver.count).toBe(0);

    await sandbox.changeLicence(CANARY, { surname: 'SMYTHE' });
    const changedAt = Date.now();
    await until(
      () => receiver.count,
      (count) => count === 1,
      (PERIOD_SECONDS + 5) * 1000,
    );
    expect(Date.now() - changedAt).toBeLessThan((PERIOD_SECONDS + 3) * 1000);
    const [failed] = alerts();
    expect(failed).toEqual({ type: 'register.canary_failed', timestamp: expect.any(String), data: { licenceNumber: CANARY, reason: 'changed: surname' } });
    expect(await register()).toEqual({
      status: 'up',
      responseTime: expect.any(Number),
      state: 'closed',
      register: 'drifted',
      message: 'A register canary failed: check its alert, then `npm run admin -- canary acknowledge` (or `canary rebaseline`)',
    });

    await periods(2); // the same episode: no second alert
    expect(alertTypes()).toEqual(['register.canary_failed']);
    const metrics = await workerMetrics();
    expect(series(metrics, 'lvs_register_canary_ok')).toBe(0);
    expect(series(metrics, 'lvs_alerts_sent_total{type="register.canary_failed"}')).toBe(1);

    // The register answers as before again, and the failure still waits for the operator.
    await sandbox.changeLicence(CANARY, { surname: SANDBOX_LICENCES.active.surname });
    await periods(1);
    expect(await register()).toMatchObject({ register: 'drifted' });
    // Acknowledged: ready as ok, and it stays so while the answers are good (with the surname still changed, the next
    // period could fail again before the command's process even ended on a busy machine).
    const acknowledged = await runAdminCli(t.env, 'canary', 'acknowledge');
    expect([acknowledged.status, JSON.parse(acknowledged.stdout)]).toEqual([0, { canary: 'acknowledge', failuresCleared: 1, baselinesCleared: false }]);
    expect(await register()).toMatchObject({ register: 'ok' });
    await periods(1);
    expect(await register()).toMatchObject({ register: 'ok' });
    expect(alertTypes()).toEqual(['register.canary_failed']);
    // Changed again: a new episode.
    await sandbox.changeLicence(CANARY, { surname: 'SMYTHE' });
    await until(
      () => receiver.count,
      (count) => count === 2,
      (PERIOD_SECONDS + 5) * 1000,
    );
    expect(alertTypes()).toEqual(['register.canary_failed', 'register.canary_failed']);

    // Re-baselined: the changed answer is the new baseline, and nothing fails any more.
    const rebaselined = await runAdminCli(t.env, 'canary', 'rebaseline');
    expect([rebaselined.status, JSON.parse(rebaselined.stdout)]).toEqual([0, { canary: 'rebaseline', failuresCleared: 1, baselinesCleared: true }]);
    await periods(2);
    expect(await register()).toMatchObject({ register: 'ok' });
    expect(series(await workerMetrics(), 'lvs_register_canary_ok')).toBe(1);
    expect(alertTypes()).toEqual(['register.canary_failed', 'register.canary_failed']);
  });

  it('sends register.unavailable once for a breaker held open past ALERT_REGISTER_DOWN_SECONDS, and register.recovered once', async () => {
    const before = receiver.count;
    await sandbox.setFault({ fault: 'status-503' });
    await until(
      async () => (await register()).state,
      (state) => state !== 'closed',
      (PERIOD_SECONDS + 5) * 1000,
    );
    const openedAt = Date.now();
    await sleep((2 * DOWN_SECONDS + 1) * 1000); // held open twice the threshold, and more
    expect((await register()).state).not.toBe('closed');
    const down = alerts().slice(before);
    expect(down.map((alert) => alert.type)).toEqual(['register.unavailable']);
    // Seen open by the worker's check of each second, so within about a second of readiness seeing it.
    expect(Math.abs(Date.parse(down[0].data.since as string) - openedAt)).toBeLessThan(2000);

    await sandbox.clearFaults();
    await until(
      async () => (await register()).state,
      (state) => state === 'closed',
      (PERIOD_SECONDS + 5) * 1000,
    );
    await until(
      () => receiver.count,
      (count) => count === before + 2,
    );
    await sleep(2 * PERIOD_SECONDS * 1000);
    expect(alertTypes().slice(before)).toEqual(['register.unavailable', 'register.recovered']);
    const metrics = await workerMetrics();
    expect(series(metrics, 'lvs_alerts_sent_total{type="register.unavailable"}')).toBe(1);
    expect(series(metrics, 'lvs_alerts_sent_total{type="register.recovered"}')).toBe(1);
  });
});
