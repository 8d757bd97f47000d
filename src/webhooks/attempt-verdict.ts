import { DISABLE_AFTER_FAILING_MS, delayBeforeNextAttemptMs } from './retry-schedule';

/** What one delivery attempt got back. */
export interface AttemptOutcome {
  /** the receiver's HTTP status; null when no answer came */
  responseStatus: number | null;
  error: string | null;
  /** nothing was sent and a retry would fare no better: the SSRF guard refused the address, or no configured key opens the signing secret */
  refused: boolean;
}

export interface AttemptVerdict {
  delivered: boolean;
  deliveryStatus: 'DELIVERED' | 'PENDING' | 'FAILED';
  /** milliseconds until the next attempt; null when there is none */
  retryInMs: number | null;
  /** since when the endpoint has failed without a success in between; null once it succeeds */
  failingSince: Date | null;
  disableReason: 'GONE' | 'FAILING_FOR_3_DAYS' | null;
}

/**
 * Judges one attempt: 2xx is delivered; 410 disables the endpoint; an endpoint failing for 3 days
 * is disabled; an address the guard refuses is final for the delivery (it would be refused on every
 * retry, and retrying must not give a rebinding DNS name another chance), and so is a signing secret
 * that no configured key opens (it can be replayed once the keys are fixed); anything else is retried
 * while the schedule has attempts left.
 */
export function judgeAttempt(options: {
  outcome: AttemptOutcome;
  startedAt: Date;
  /** the endpoint's failing_since before this attempt */
  failingSince: Date | null;
  schedule: readonly number[];
  /** attempts made before this one */
  attemptsMade: number;
}): AttemptVerdict {
  const { outcome, startedAt } = options;
  const status = outcome.responseStatus;
  if (status !== null && status >= 200 && status < 300) {
    return { delivered: true, deliveryStatus: 'DELIVERED', retryInMs: null, failingSince: null, disableReason: null };
  }
  const failingSince = options.failingSince ?? startedAt;
  const disableReason = status === 410 ? 'GONE' : startedAt.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS ? 'FAILING_FOR_3_DAYS' : null;
  const retryInMs = disableReason === null && !outcome.refused ? delayBeforeNextAttemptMs(options.schedule, options.attemptsMade + 1) : null;
  return { delivered: false, deliveryStatus: retryInMs === null ? 'FAILED' : 'PENDING', retryInMs, failingSince, disableReason };
}
