/** Webhook deliveries: produced by the API (tests, retries) and the worker (re-check events), run by the worker. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const DELIVER_JOB = 'deliver';

export interface DeliveryJobData {
  deliveryId: string;
}

/** A receiver gets this long to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
