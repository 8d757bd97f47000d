import { KNOWN_PAGE_SHAPES } from '@lvs/register';
import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { setTimeout as sleep } from 'node:timers/promises';
import { READINESS_MAX_AGE_MS } from '../../src/health/readiness-freshness';
import { AlertReceiver } from '../support/alert-receiver';
import { request, verifyUntilFinal as verify } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { series } from '../support/metrics-text';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const SHAPE_DRIFT_MESSAGE =
  'The register served a page of a new shape: check its alert and sample (`npm run admin -- shape list`), then `npm run admin -- shape acknowledge SHAPE`';

interface ShapeList {
  shapes: { shape: string; firstSeen: string; lastSeen: string; count: number; unacknowledged: boolean }[];
  samples: { shape: string; at: string; parsed: boolean; page: string }[];
}

// Its own app: the shapes seen are shared by every process of one Redis prefix.
describe('register watch: page shapes', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;
  let receiver: AlertReceiver;
  let workerUrl: string;
  let key: string;

  beforeAll(async () => {
    receiver = await AlertReceiver.start();
    t = await startTestApp({ env: { OPERATOR_ALERT_URL: receiver.url, OPERATOR_ALERT_SECRET: receiver.secret, LOOKUP_ATTEMPTS: '1' } });
    sandbox = new SandboxAdmin(t.sandbox.url);
    const worker = await t.startWorker();
    workerUrl = `http://127.0.0.1:${worker.log.match(/Operators' listener .* on [\d.]+:(\d+)/)![1]}`;
    key = (await t.createKey()).key;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const alerts = () => receiver.alerts();
  /** The register's part of readiness, as it stands now: an answer may come from a check up to READINESS_MAX_AGE_MS old. */
  const register = async () => {
    await sleep(READINESS_MAX_AGE_MS + 50);
    const ready = await request(t.baseUrl, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    return (ready.body as { info: { registerBreaker: { register: string; message?: string } } }).info.registerBreaker;
  };
  const workerMetrics = async () => (await fetch(`${workerUrl}/metrics`)).text();
  const shapeList = async (): Promise<ShapeList> => {
    const listed = await runAdminCli(t.env, 'shape', 'list');
    expect(listed.status).toBe(0);
    return JSON.parse(listed.stdout) as ShapeList;
  };
  const alertCount = (count: number) =>
    until(
      () => receiver.count,
      (received) => received === count,
      10_000,
    );

  it('counts pages of the known shapes, and neither alerts nor drifts for them (a status reason, conditions, no sector)', async () => {
    for (const number of [SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.withConditions, SANDBOX_NUMBERS.nonFrontLine]) {
      expect((await verify(t.baseUrl, key, number)).status).toBe(200);
    }
    expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.notFound)).status).toBe(404);
    await sleep(2000); // the register watch checks each second
    expect(receiver.count).toBe(0);
    expect(await register()).toMatchObject({ register: 'ok' });
    const metrics = await workerMetrics();
    expect(series(metrics, 'lvs_register_page_shape_new_total')).toBe(0);
    const { shapes, samples } = await shapeList();
    expect(shapes.reduce((sum, shape) => sum + shape.count, 0)).toBe(4);
    for (const { shape, count, unacknowledged } of shapes) {
      expect(KNOWN_PAGE_SHAPES.has(shape)).toBe(true);
      expect(unacknowledged).toBe(false);
      expect(series(metrics, `lvs_register_page_shapes_total{shape="${shape}"}`)).toBe(count);
    }
    expect(samples).toEqual([]);
  });

  it('still parses a page with a new labelled field, alerts once with a sample holding no name, drifts until acknowledged', async () => {
    await sandbox.setPageVariant({ field: { label: 'Licence category', value: 'Premium' } });
    const found = await verify(t.baseUrl, key, SANDBOX_NUMBERS.expired);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ status: 'FOUND', licence: { licenceNumber: SANDBOX_NUMBERS.expired, surname: SANDBOX_LICENCES.expired.surname } });

    await alertCount(1);
    const [alert] = alerts();
    expect(alert).toEqual({
      type: 'register.page_shape_new',
      timestamp: expect.any(String),
      data: { shape: expect.stringMatching(/^[0-9a-f]{16}$/), at: expect.any(String), parsed: true },
    });
    const shape = alert.data.shape as string;
    expect(KNOWN_PAGE_SHAPES.has(shape)).toBe(false);
    expect(await register()).toEqual({
      status: 'up',
      responseTime: expect.any(Number),
      state: 'closed',
      register: 'drifted',
      message: SHAPE_DRIFT_MESSAGE,
    });

    // Another licence in the same layout: the same shape, counted, and no second alert.
    expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.renewedNew)).status).toBe(200);
    await sleep(2000);
    expect(receiver.count).toBe(1);
    const metrics = await workerMetrics();
    expect(series(metrics, 'lvs_register_page_shape_new_total')).toBe(1);
    expect(series(metrics, `lvs_register_page_shapes_total{shape="${shape}"}`)).toBe(2);
    expect(series(metrics, 'lvs_alerts_sent_total{type="register.page_shape_new"}')).toBe(1);

    const { shapes, samples } = await shapeList();
    expect(shapes[0]).toEqual({ shape, firstSeen: alert.data.at, lastSeen: expect.any(String), count: 2, unacknowledged: true });
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({ shape, at: alert.data.at, parsed: true });
    const { page } = samples[0];
    expect(page).toContain('Licence category');
    expect(page).toContain(SANDBOX_NUMBERS.expired);
    for (const name of ['MARY', 'ANNE', 'BRIEN']) expect(page).not.toContain(name);
    expect(page).toContain(`[${SANDBOX_LICENCES.expired.surname.length}]`);

    const acknowledged = await runAdminCli(t.env, 'shape', 'acknowledge', shape);
    expect([acknowledged.status, JSON.parse(acknowledged.stdout)]).toEqual([0, { shape, acknowledged: true }]);
    expect(await register()).toMatchObject({ register: 'ok' });
    const again = await runAdminCli(t.env, 'shape', 'acknowledge', shape);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(`No new page shape ${shape} waits for an acknowledgement`);

    // Acknowledged, the shape is known: more of its pages raise nothing.
    expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.suspended)).status).toBe(200);
    await sleep(2000);
    expect(receiver.count).toBe(1);
    expect(await register()).toMatchObject({ register: 'ok' });
  });

  it('alerts once for a wrapper with a new class, and for a page of a new shape that did not parse', async () => {
    await sandbox.setPageVariant({ wrapperClass: 'result-v2' });
    expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.revoked)).status).toBe(200);
    await alertCount(2);
    await sandbox.setPageVariant({});
    const unread = await verify(t.baseUrl, key, SANDBOX_NUMBERS.faultTruncated);
    expect(unread.status).toBe(502);
    await alertCount(3);

    const [, wrapped, truncated] = alerts();
    expect([wrapped.type, wrapped.data.parsed, truncated.type, truncated.data.parsed]).toEqual([
      'register.page_shape_new',
      true,
      'register.page_shape_new',
      false,
    ]);
    expect(wrapped.data.shape).not.toBe(truncated.data.shape);
    expect(await register()).toMatchObject({ register: 'drifted', message: SHAPE_DRIFT_MESSAGE });
    const { samples } = await shapeList();
    expect(samples.map((sample) => [sample.shape, sample.parsed])).toEqual([
      [truncated.data.shape, false],
      [wrapped.data.shape, true],
      [alerts()[0].data.shape, true],
    ]);

    for (const shape of [wrapped.data.shape, truncated.data.shape] as string[]) {
      expect((await runAdminCli(t.env, 'shape', 'acknowledge', shape)).status).toBe(0);
    }
    expect(await register()).toMatchObject({ register: 'ok' });
    expect(series(await workerMetrics(), 'lvs_register_page_shape_new_total')).toBe(3);
  });
});
