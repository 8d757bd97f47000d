import { DELIVERY_TIMEOUT_MS } from './delivery.queue';

/** Deliveries to one endpoint in flight at once, across every worker: an endpoint that hangs holds no more. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 2;

export const MAX_ENDPOINTS_PER_USER = 10;

/** One manual send (a test ping or a replay) per endpoint in this interval. */
export const MANUAL_SEND_INTERVAL_MS = 10_000;

/** A delivery's hold on its endpoint: its attempt's timeout and time to record it; frees itself if the worker dies. */
export const ENDPOINT_LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;

/** Retry-After in whole seconds, rounded up: never 0 while there is time left to wait. */
export function wholeSecondsToWait(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/** The longest a delivery that found its endpoint busy waits before it asks again, if nothing wakes it sooner. */
export const BUSY_ENDPOINT_MAX_WAIT_MS = 5_000;

/**
 * When a delivery that found its endpoint busy asks again: when the first slot's lease ends, at least
 * 250 ms and at most BUSY_ENDPOINT_MAX_WAIT_MS from now, plus up to 250 ms so that the waiting deliveries
 * do not return together. A slot freed sooner wakes the oldest waiting delivery at once, so this bounds
 * only a missed wake-up and the polling of an endpoint that holds its slots. `random` is in [0, 1).
 */
export function busyEndpointDelayMs(untilFirstLeaseEndsMs: number, random: number): number {
  return Math.min(Math.max(untilFirstLeaseEndsMs, 250), BUSY_ENDPOINT_MAX_WAIT_MS) + Math.floor(random * 250);
}

/**
 * Parts of the Redis key (under REDIS_PREFIX) of one endpoint's `purpose`: the user's hash tag keeps every
 * key of one user in one Redis Cluster slot, so each script touches a single slot.
 */
export function endpointKeyParts(purpose: 'in-flight' | 'waiting' | 'manual-send', userId: string, endpointId: string): string[] {
  return ['webhooks', purpose, `{u${userId}}`, endpointId];
}
