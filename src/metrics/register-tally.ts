import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/**
 * A worker's register lookups as its /metrics counts them since it started: attempts by outcome, their duration's
 * cumulative buckets (all outcomes together, by `le` as the exposition writes it, `+Inf` last) and the pages of a
 * new shape. Workers publish it with their heartbeat; the operator console sums theirs.
 */
export interface RegisterTally {
  lookups: Record<string, number>;
  buckets: Record<string, number>;
  newPageShapes: number;
}

/** A tally with its worker's lookup attempts per second over the last minute. */
export interface WorkerTally extends RegisterTally {
  perSecond: number;
}

/** A bucket of a histogram: its upper bound and how many observations were at or below it. */
export interface Bucket {
  le: number;
  count: number;
}

/** The tally of a registry's lookup counter, duration histogram and new-shape counter, as getMetricsAsJSON gives them. */
export function tallyOf(
  lookups: MetricObjectWithValues<MetricValue<string>>,
  duration: MetricObjectWithValues<MetricValue<string>>,
  newPageShapes: MetricObjectWithValues<MetricValue<string>>,
): RegisterTally {
  const tally: RegisterTally = { lookups: {}, buckets: {}, newPageShapes: newPageShapes.values.reduce((sum, { value }) => sum + value, 0) };
  for (const { labels, value } of lookups.values) add(tally.lookups, String(labels.outcome), value);
  for (const value of duration.values) {
    if ((value as { metricName?: string }).metricName?.endsWith('_bucket')) add(tally.buckets, formatLe(value.labels.le), value.value);
  }
  return tally;
}

/** Several workers' tallies as one, series by series, as `sum` over instances would in Prometheus. */
export function sumTallies(tallies: readonly RegisterTally[]): RegisterTally {
  const total: RegisterTally = { lookups: {}, buckets: {}, newPageShapes: 0 };
  for (const tally of tallies) {
    for (const [outcome, count] of Object.entries(tally.lookups)) add(total.lookups, outcome, count);
    for (const [le, count] of Object.entries(tally.buckets)) add(total.buckets, le, count);
    total.newPageShapes += tally.newPageShapes;
  }
  return total;
}

/** A tally's buckets by bound, lowest first (`+Inf` is Infinity). */
export function bucketsOf(buckets: Record<string, number>): Bucket[] {
  return Object.entries(buckets)
    .map(([le, count]) => ({ le: le === '+Inf' ? Infinity : Number(le), count }))
    .sort((a, b) => a.le - b.le);
}

/**
 * The q-quantile of cumulative buckets by the rule of Prometheus' histogram_quantile: the bucket the rank falls in,
 * interpolated linearly within it (from 0 for the first bucket); a rank in the +Inf bucket gives the highest finite
 * bound. NaN with no observations, as Prometheus answers.
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[]): number {
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  if (buckets.length < 2 || buckets[buckets.length - 1].le !== Infinity) return NaN;
  const total = buckets[buckets.length - 1].count;
  if (total === 0) return NaN;
  const rank = q * total;
  const index = buckets.findIndex((bucket) => bucket.count >= rank);
  if (index === buckets.length - 1) return buckets[buckets.length - 2].le;
  if (index === 0 && buckets[0].le <= 0) return buckets[0].le;
  const start = index === 0 ? 0 : buckets[index - 1].le;
  const below = index === 0 ? 0 : buckets[index - 1].count;
  return start + (buckets[index].le - start) * ((rank - below) / (buckets[index].count - below));
}

/** A count at a moment (epoch ms). */
export interface CountSample {
  at: number;
  total: number;
}

/**
 * The rate of a growing count over the last `windowMs`, from samples taken oldest first: the newest against the
 * oldest kept, which is the last one at or before the window's start (or the first, for a younger process). Returns the
 * samples still needed, so the caller keeps a window's worth and no more.
 */
export function recentRate(samples: readonly CountSample[], windowMs: number): { perSecond: number; kept: CountSample[] } {
  if (samples.length === 0) return { perSecond: 0, kept: [] };
  const newest = samples[samples.length - 1];
  const start = samples.findLastIndex((sample) => sample.at <= newest.at - windowMs);
  const kept = samples.slice(Math.max(0, start));
  const seconds = (newest.at - kept[0].at) / 1000;
  return { perSecond: seconds > 0 ? (newest.total - kept[0].total) / seconds : 0, kept };
}

function add(counts: Record<string, number>, key: string, value: number): void {
  counts[key] = (counts[key] ?? 0) + value;
}

/** A bucket's bound as the exposition format writes it. */
function formatLe(le: string | number | undefined): string {
  return le === Infinity || le === '+Inf' ? '+Inf' : String(le);
}
