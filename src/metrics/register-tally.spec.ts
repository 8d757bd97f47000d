import { Counter, Histogram, Registry } from 'prom-client';
import { bucketsOf, histogramQuantile, recentRate, sumTallies, tallyOf } from './register-tally';

const bucket = (le: number, count: number) => ({ le, count });

describe('histogramQuantile', () => {
  // Prometheus' own cases (promql/quantile_test): buckets 0.1, 0.2, +Inf.
  const buckets = [bucket(0.1, 10), bucket(0.2, 20), bucket(Infinity, 20)];

  it('interpolates within the bucket the rank falls in, the first from 0', () => {
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.1, 10);
    expect(histogramQuantile(0.75, buckets)).toBeCloseTo(0.15, 10);
    expect(histogramQuantile(0.25, buckets)).toBeCloseTo(0.05, 10);
    expect(histogramQuantile(0.99, [bucket(0.005, 0), bucket(0.01, 50), bucket(0.025, 100), bucket(Infinity, 100)])).toBeCloseTo(0.0247, 10);
  });

  it('answers the highest finite bound for a rank in the +Inf bucket', () => {
    expect(histogramQuantile(0.99, [bucket(0.1, 1), bucket(0.5, 1), bucket(Infinity, 2)])).toBe(0.5);
  });

  it('answers NaN with no observations or no +Inf bucket, and ±Infinity outside 0..1', () => {
    expect(histogramQuantile(0.5, [bucket(0.1, 0), bucket(Infinity, 0)])).toBeNaN();
    expect(histogramQuantile(0.5, [bucket(0.1, 3), bucket(0.2, 3)])).toBeNaN();
    expect(histogramQuantile(-0.1, buckets)).toBe(-Infinity);
    expect(histogramQuantile(1.1, buckets)).toBe(Infinity);
  });
});

describe('tallyOf and sumTallies', () => {
  it("folds a registry's lookups by outcome and the duration's buckets over outcomes, then sums workers", async () => {
    const registry = new Registry();
    const lookups = new Counter({ name: 'l', help: 'l', labelNames: ['outcome'], registers: [registry] });
    const duration = new Histogram({ name: 'd', help: 'd', labelNames: ['outcome'], buckets: [0.1, 1], registers: [registry] });
    const shapes = new Counter({ name: 's', help: 's', registers: [registry] });
    lookups.inc({ outcome: 'FOUND' }, 2);
    lookups.inc({ outcome: 'SERVICE_UNAVAILABLE' });
    duration.observe({ outcome: 'FOUND' }, 0.05);
    duration.observe({ outcome: 'FOUND' }, 0.5);
    duration.observe({ outcome: 'SERVICE_UNAVAILABLE' }, 3);
    shapes.inc();
    const json = async (name: string) => await registry.getSingleMetric(name)!.get();
    const tally = tallyOf(await json('l'), await json('d'), await json('s'));
    expect(tally).toEqual({
      lookups: { FOUND: 2, SERVICE_UNAVAILABLE: 1 },
      buckets: { '0.1': 1, '1': 2, '+Inf': 3 },
      newPageShapes: 1,
    });
    expect(sumTallies([tally, { lookups: { FOUND: 1 }, buckets: { '0.1': 1, '1': 1, '+Inf': 1 }, newPageShapes: 0 }])).toEqual({
      lookups: { FOUND: 3, SERVICE_UNAVAILABLE: 1 },
      buckets: { '0.1': 2, '1': 3, '+Inf': 4 },
      newPageShapes: 1,
    });
    expect(bucketsOf(tally.buckets)).toEqual([bucket(0.1, 1), bucket(1, 2), bucket(Infinity, 3)]);
  });
});

describe('recentRate', () => {
  it('measures from the last sample at or before the window, and keeps that one onwards', () => {
    const samples = [
      { at: 0, total: 0 },
      { at: 10_000, total: 5 },
      { at: 60_000, total: 50 },
      { at: 70_000, total: 65 },
    ];
    expect(recentRate(samples, 60_000)).toEqual({ perSecond: 1, kept: samples.slice(1) });
  });

  it('measures a younger process from its first sample, and a single sample as 0', () => {
    expect(
      recentRate(
        [
          { at: 0, total: 0 },
          { at: 4000, total: 10 },
        ],
        60_000,
      ).perSecond,
    ).toBe(2.5);
    expect(recentRate([{ at: 0, total: 7 }], 60_000)).toEqual({ perSecond: 0, kept: [{ at: 0, total: 7 }] });
    expect(recentRate([], 60_000)).toEqual({ perSecond: 0, kept: [] });
  });
});
