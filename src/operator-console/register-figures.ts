import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/** One series of the metrics endpoint as the Register page shows it: its name with labels, as /metrics writes it, and its value. */
export interface SeriesLine {
  series: string;
  value: number;
}

/** The metric families the Register page shows: the register's lookups, breaker, canary and page shapes, the lookup queues, the answers. */
export const REGISTER_FAMILIES = /^lvs_(register_|lookup_queue_jobs|test_lookup_queue_jobs|verifications_total)/;

/** A series' name as the exposition format writes it: `name{label="value",…}`, the labels in their stored order. */
export function seriesName(name: string, labels: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(labels)
    .filter(([, value]) => value !== undefined)
    .map(([label, value]) => `${label}="${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(',')}}`;
}

/**
 * The register's series of a registry's JSON (the same registry /metrics renders), a histogram by its count and sum
 * (its buckets stay on /metrics).
 */
export function registerSeries(families: readonly MetricObjectWithValues<MetricValue<string>>[]): SeriesLine[] {
  return families
    .filter((family) => REGISTER_FAMILIES.test(family.name))
    .flatMap((family) =>
      family.values
        .map((value) => ({ name: (value as { metricName?: string }).metricName ?? family.name, value }))
        .filter(({ name }) => !name.endsWith('_bucket'))
        .map(({ name, value }) => ({ series: seriesName(name, value.labels), value: value.value })),
    );
}
