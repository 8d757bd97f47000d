import { Metrics } from './metrics';

/** The value of one series in a rendered scrape, or undefined when the scrape has no such line. */
function series(scrape: string, name: string): number | undefined {
  const line = scrape.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('Metrics: gauges read at scrape time', () => {
  it('renders what the sources read', async () => {
    const metrics = new Metrics();
    metrics.readBreakerPhaseFrom(() => Promise.resolve('open'));
    metrics.readEvidenceWaitingFrom(() => Promise.resolve(12));
    const scrape = await metrics.render();
    expect(series(scrape, 'lvs_register_breaker_state{state="open"}')).toBe(1);
    expect(series(scrape, 'lvs_register_breaker_state{state="closed"}')).toBe(0);
    expect(series(scrape, 'lvs_evidence_oldest_waiting_seconds')).toBe(12);
    expect(series(scrape, 'lvs_scrape_read_failures_total{gauge="lvs_register_breaker_state"}')).toBe(0);
  });

  it('still answers when a read fails: that gauge keeps its last value, and the failure is counted by gauge at the next scrape', async () => {
    const metrics = new Metrics();
    let waiting: () => Promise<number> = () => Promise.resolve(7);
    metrics.readEvidenceWaitingFrom(() => waiting());
    metrics.readBreakerPhaseFrom(() => Promise.reject(new Error('Command timed out')));
    const first = await metrics.render();
    expect(series(first, 'lvs_evidence_oldest_waiting_seconds')).toBe(7);
    expect(series(first, 'lvs_register_breaker_state{state="closed"}')).toBeUndefined();

    waiting = () => Promise.reject(new Error('Connection is closed.'));
    const second = await metrics.render();
    expect(series(second, 'lvs_evidence_oldest_waiting_seconds')).toBe(7);
    // The counter renders beside the gauges, before their reads settle: a scrape shows the failures of the ones before.
    expect(series(second, 'lvs_scrape_read_failures_total{gauge="lvs_register_breaker_state"}')).toBe(1);
    const third = await metrics.render();
    expect(series(third, 'lvs_scrape_read_failures_total{gauge="lvs_evidence_oldest_waiting_seconds"}')).toBe(1);
    expect(series(third, 'lvs_scrape_read_failures_total{gauge="lvs_register_breaker_state"}')).toBe(2);
    expect(series(third, 'lvs_scrape_read_failures_total{gauge="lvs_register_canary_ok"}')).toBe(0);
    // The process's own metrics are still there to explain the slowness.
    expect(series(third, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});
