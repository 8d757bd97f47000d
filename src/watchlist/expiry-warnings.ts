/** Days before expiryDate at which licence.expiring is sent, once each. */
export const EXPIRY_WARNING_DAYS = [60, 30, 7, 1] as const;

const DAY_MS = 86_400_000;

/** Whole days from today's UTC date to the expiry date (YYYY-MM-DD); negative once expired. */
export function daysUntil(expiryDate: string, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${expiryDate}T00:00:00Z`) - today) / DAY_MS);
}

/**
 * The expiry warning due now, if any, and the thresholds to record as sent. Each threshold fires
 * at most once; when several were crossed at once (a number added 5 days before expiry) only the
 * nearest fires and the earlier ones are recorded as passed, so a partner never gets a stale
 * "60 days" after a "7 days". Nothing fires on or after the expiry day: status changes cover that.
 */
export function dueExpiryWarning(daysLeft: number, alreadySent: readonly number[]): { warnAt: number | null; sent: number[] } {
  if (daysLeft <= 0) return { warnAt: null, sent: [...alreadySent] };
  const crossed = EXPIRY_WARNING_DAYS.filter((threshold) => daysLeft <= threshold);
  const fresh = crossed.filter((threshold) => !alreadySent.includes(threshold));
  if (fresh.length === 0) return { warnAt: null, sent: [...alreadySent] };
  const sent = [...new Set([...alreadySent, ...crossed])].sort((a, b) => b - a);
  return { warnAt: Math.min(...fresh), sent };
}
