import { milliseconds, partnerShares, percent, registerSeries, seriesName } from './register-figures';

describe('seriesName', () => {
  it('writes the name with its labels as the exposition format does, quotes and backslashes escaped', () => {
    expect(seriesName('lvs_register_lookups_total', { outcome: 'FOUND' })).toBe('lvs_register_lookups_total{outcome="FOUND"}');
    expect(seriesName('lvs_register_canary_ok', {})).toBe('lvs_register_canary_ok');
    expect(seriesName('x', { a: 'say "hi"\\' })).toBe('x{a="say \\"hi\\"\\\\"}');
  });
});

describe('registerSeries', () => {
  it("keeps the API's own families of the register: the breaker, the queues and the answers", () => {
    const families = [
      { name: 'lvs_register_breaker_state', help: '', type: 'gauge', aggregator: 'sum', values: [{ labels: { state: 'open' }, value: 1 }] },
      {
        name: 'lvs_verifications_total',
        help: '',
        type: 'counter',
        aggregator: 'sum',
        values: [{ labels: { outcome: 'FOUND', source: 'cache' }, value: 4 }],
      },
      // The workers' count, zero in the API: the page shows the workers' own.
      { name: 'lvs_register_lookups_total', help: '', type: 'counter', aggregator: 'sum', values: [{ labels: { outcome: 'FOUND' }, value: 0 }] },
      { name: 'process_cpu_seconds_total', help: '', type: 'counter', aggregator: 'sum', values: [{ labels: {}, value: 9 }] },
    ] as unknown as Parameters<typeof registerSeries>[0];
    expect(registerSeries(families)).toEqual([
      { series: 'lvs_register_breaker_state{state="open"}', value: 1 },
      { series: 'lvs_verifications_total{outcome="FOUND",source="cache"}', value: 4 },
    ]);
  });
});

describe('partnerShares', () => {
  it("gives each partner's part of every partner's register answers and of the budget over the period", () => {
    const rows = [
      { id: 'a', name: 'Acme', answers: 3, allPartners: 5 },
      { id: 'b', name: 'Bold', answers: 2, allPartners: 5 },
    ];
    expect(partnerShares(rows, 10, 3600)).toEqual([
      { id: 'a', name: 'Acme', answers: 3, ofAnswers: 0.6, ofBudget: 3 / 36_000 },
      { id: 'b', name: 'Bold', answers: 2, ofAnswers: 0.4, ofBudget: 2 / 36_000 },
    ]);
  });
});

describe('percent and milliseconds', () => {
  it('write a share to two decimals and a duration in milliseconds, none as a dash', () => {
    expect([percent(0.6), percent(3 / 36_000), percent(1)]).toEqual(['60.00 %', '0.01 %', '100.00 %']);
    expect([milliseconds(0.0123456), milliseconds(2.5), milliseconds(NaN)]).toEqual(['12.3 ms', '2500.0 ms', '—']);
  });
});
