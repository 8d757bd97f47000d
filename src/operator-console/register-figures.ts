import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { RegisterAnswersRow } from './partner-figures.repository';

/** One series of the metrics endpoint as the Register page shows it: its name with labels, as /metrics writes it, and its value. */
export interface SeriesLine {
  series: string;
  value: number;
}

/**
 * The API process's own families the Register page lists: the breaker, the lookup queues, the answers (the lookups
 * themselves are counted by the workers, whose tallies the page sums).
 */
export const REGISTER_FAMILIES = /^lvs_(register_breaker_state|lookup_queue_jobs|test_lookup_queue_jobs|verifications_total)$/;

/** A series' name as the exposition format writes it: `name{label="value",…}`, the labels in their stored order. */
export function seriesName(name: string, labels: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(labels)
    .filter(([, value]) => value !== undefined)
    .map(([label, value]) => `${label}="${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(',')}}`;
}

/** The Register page's series of a registry's JSON (the same registry /metrics renders). */
export function registerSeries(families: readonly MetricObjectWithValues<MetricValue<string>>[]): SeriesLine[] {
  return families
    .filter((family) => REGISTER_FAMILIES.test(family.name))
    .flatMap((family) => family.values.map((value) => ({ series: seriesName(family.name, value.labels), value: value.value })));
}

/** A partner's part of the register in a period: its answers that took a lookup, of every partner's and of the budget. */
export interface PartnerShare {
  id: string;
  name: string;
  answers: number;
  ofAnswers: number;
  ofBudget: number;
}

/** Each partner's share of the register's answers and of its budget, REGISTER_MAX_PER_SECOND for `seconds`. */
export function partnerShares(rows: readonly RegisterAnswersRow[], maxPerSecond: number, seconds: number): PartnerShare[] {
  return rows.map(({ id, name, answers, allPartners }) => ({
    id,
    name,
    answers,
    ofAnswers: answers / allPartners,
    ofBudget: answers / (maxPerSecond * seconds),
  }));
}

/** A share as the page writes it: a percentage to two decimals. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(2)} %`;
}

/** A duration in seconds as the page writes it, in milliseconds; none (NaN: no lookups yet) as a dash. */
export function milliseconds(seconds: number): string {
  return Number.isNaN(seconds) ? '—' : `${(seconds * 1000).toFixed(1)} ms`;
}
