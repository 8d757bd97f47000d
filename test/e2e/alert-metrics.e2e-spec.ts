import { series } from '../support/metrics-text';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const scrape = async (baseUrl: string): Promise<string> => (await fetch(`${baseUrl}/metrics`)).text();

// The figures deploy/prometheus/rules.yml alerts on that no other spec provokes: records left in the evidence
// stream, and a failing sweep of unrefunded charges.
describe('the metrics the alert rules need, on real processes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('export the age of the oldest verification record waiting in Redis, 0 when none waits', async () => {
    const streamKey = `${t.redisPrefix}:evidence:records`;
    expect(series(await scrape(t.baseUrl), 'lvs_evidence_oldest_waiting_seconds')).toBe(0);

    // No worker runs, so nothing drains a record added 90 s ago by Redis's clock.
    const [seconds] = await t.redis.time();
    await t.redis.xadd(streamKey, `${(Number(seconds) - 90) * 1000}-0`, 'record', '{}');
    await t.redis.xadd(streamKey, `${(Number(seconds) - 10) * 1000}-0`, 'record', '{}');
    const age = series(await scrape(t.baseUrl), 'lvs_evidence_oldest_waiting_seconds');
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(90 + 60);

    await t.redis.del(streamKey);
    expect(series(await scrape(t.baseUrl), 'lvs_evidence_oldest_waiting_seconds')).toBe(0);
  });

  it('count the sweeps for unrefunded charges that fail, in the process that swept', async () => {
    expect(series(await scrape(t.baseUrl), 'lvs_quota_ledger_sweep_failures_total')).toBe(0);
    // A charge-intents key of the wrong type fails every sweep's first read, as a broken Redis would.
    const intentsKey = `${t.redisPrefix}:charge-intents`;
    await t.redis.set(intentsKey, 'not a sorted set');
    try {
      const worker = await t.startWorker();
      await until(
        () => worker.log,
        (log) => log.includes('Sweeping unsettled lookups failed'),
      );
      const workerUrl = `http://127.0.0.1:${worker.log.match(/Operators' listener .* on [\d.]+:(\d+)/)![1]}`;
      expect(series(await scrape(workerUrl), 'lvs_quota_ledger_sweep_failures_total')).toBe(1);
    } finally {
      await t.redis.del(intentsKey);
    }
  });
});
