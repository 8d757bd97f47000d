import { Metrics } from '../../src/metrics/metrics';

/** Every series name the service's Metrics registers (a histogram's _bucket, _sum and _count), Node's included. */
export function exportedSeriesNames(): Set<string> {
  const metrics = new Metrics().registry.getMetricsAsArray();
  return new Set(metrics.flatMap(({ name, type }) => (String(type) === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])));
}

// PromQL's words that are not metric names: aggregation modifiers, vector matching and set operators.
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool']);

/**
 * The metric names a PromQL expression reads: every identifier that is not in a string, a label matcher, a label
 * list (by, on, ...), a range or a Grafana variable ($__rate_interval), not a function and not a keyword.
 */
export function metricNamesIn(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = [...bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)\s*(\()?/g)]
    .filter(([, name, call]) => call === undefined && !KEYWORDS.has(name))
    .map(([, name]) => name);
  return [...new Set(names)];
}

/** For each named query, the metrics it reads and those of them the service does not export. */
export function metricsReadBy(queries: { name: string; expr: string }[]): { name: string; reads: string[]; unknown: string[] }[] {
  const exported = exportedSeriesNames();
  return queries.map(({ name, expr }) => {
    const reads = metricNamesIn(expr);
    return { name, reads, unknown: reads.filter((metric) => !exported.has(metric)) };
  });
}
