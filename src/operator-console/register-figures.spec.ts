import { registerSeries, seriesName } from './register-figures';

describe('seriesName', () => {
  it('writes the name with its labels as the exposition format does, quotes and backslashes escaped', () => {
    expect(seriesName('lvs_register_lookups_total', { outcome: 'FOUND' })).toBe('lvs_register_lookups_total{outcome="FOUND"}');
    expect(seriesName('lvs_register_canary_ok', {})).toBe('lvs_register_canary_ok');
    expect(seriesName('x', { a: 'say "hi"\\' })).toBe('x{a="say \\"hi\\"\\\\"}');
  });
});

describe('registerSeries', () => {
  it("keeps the register's families, a histogram by its count and sum", () => {
    const families = [
      { name: 'lvs_register_lookups_total', help: '', type: 'counter', aggregator: 'sum', values: [{ labels: { outcome: 'FOUND' }, value: 3 }] },
      {
        name: 'lvs_register_lookup_duration_seconds',
        help: '',
        type: 'histogram',
        aggregator: 'sum',
        values: [
          { labels: { le: 0.1 }, value: 2, metricName: 'lvs_register_lookup_duration_seconds_bucket' },
          { labels: {}, value: 0.3, metricName: 'lvs_register_lookup_duration_seconds_sum' },
          { labels: {}, value: 2, metricName: 'lvs_register_lookup_duration_seconds_count' },
        ],
      },
      { name: 'process_cpu_seconds_total', help: '', type: 'counter', aggregator: 'sum', values: [{ labels: {}, value: 9 }] },
    ] as unknown as Parameters<typeof registerSeries>[0];
    expect(registerSeries(families)).toEqual([
      { series: 'lvs_register_lookups_total{outcome="FOUND"}', value: 3 },
      { series: 'lvs_register_lookup_duration_seconds_sum', value: 0.3 },
      { series: 'lvs_register_lookup_duration_seconds_count', value: 2 },
    ]);
  });
});
