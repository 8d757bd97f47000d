// Building a formatter costs far more than using one, and this runs on every verification.
const formatters = new Map<string, Intl.DateTimeFormat>();

function monthFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

// Every zone's offset is a whole number of minutes (since 1972), so a month starts on a minute and
// all instants of one minute share a period: the last answer per zone serves a whole minute.
const lastAnswers = new Map<string, { minute: number; period: string }>();

/**
 * The billing period (YYYY-MM) an instant falls in, in the given IANA time zone.
 * Periods are calendar months, so a new month starts from zero without any job running.
 */
export function billingPeriod(instant: Date, timeZone: string): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastAnswers.get(timeZone);
  if (last?.minute === minute) return last.period;
  const parts = monthFormatter(timeZone).formatToParts(instant);
  const year = parts.find((part) => part.type === 'year')?.value;
  const month = parts.find((part) => part.type === 'month')?.value;
  const period = `${year}-${month}`;
  lastAnswers.set(timeZone, { minute, period });
  return period;
}

/** Remaining verifications in a period; null for an unlimited plan, never negative. */
export function remainingQuota(quota: number | null, used: number): number | null {
  return quota === null ? null : Math.max(quota - used, 0);
}

/** The `count` periods that end with `last` (YYYY-MM), oldest first: recentPeriods('2026-02', 3) is 2025-12, 2026-01, 2026-02. */
export function recentPeriods(last: string, count: number): string[] {
  const [year, month] = last.split('-').map(Number);
  const lastIndex = year * 12 + (month - 1);
  return Array.from({ length: count }, (_, position) => {
    const index = lastIndex - (count - 1 - position);
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}
