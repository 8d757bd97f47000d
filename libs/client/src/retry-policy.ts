/** When an attempt's answer or failure is retried, and after how long: pure, so that it has a unit spec. */

/** What one attempt came to: an HTTP status with the error code of its body, or a network failure. */
export type AttemptOutcome = { status: number; code?: string; retryAfterSeconds?: number } | { networkError: true };

export interface RetrySettings {
  maxRetries: number;
  /** the first backoff of a network error or 502; each later one doubles */
  baseDelayMs: number;
  /** 0 to 1, a random draw for the jitter (Math.random in use) */
  random: () => number;
}

/**
 * The wait before retry number `retry` (1 for the first), or null when the outcome is final. Every POST
 * carries an Idempotency-Key, so a retried request is never charged twice. 429 RATE_LIMITED and 503 say when
 * to come back (Retry-After); a network error or 502 backs off exponentially with full jitter, so that many
 * clients failing together do not come back together. QUOTA_EXCEEDED, 4xx errors and results are final.
 */
export function retryDelayMs(outcome: AttemptOutcome, retry: number, settings: RetrySettings): number | null {
  if (retry > settings.maxRetries) return null;
  const backoff = () => Math.round(settings.random() * settings.baseDelayMs * 2 ** (retry - 1));
  if ('networkError' in outcome) return backoff();
  if ((outcome.status === 429 && outcome.code === 'RATE_LIMITED') || outcome.status === 503) {
    return outcome.retryAfterSeconds === undefined ? backoff() : outcome.retryAfterSeconds * 1000;
  }
  if (outcome.status === 502) return backoff();
  return null;
}

/** Retry-After in whole seconds, as the service sends it; undefined when absent or not a number. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
