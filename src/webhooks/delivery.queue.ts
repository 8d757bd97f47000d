import type { OperatorAlertType } from '../metrics/metrics';

/** Webhook deliveries: produced by the API (tests, retries) and the worker (re-check events), run by the worker. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const DELIVER_JOB = 'deliver';

/** An operator alert (register-watch): sent to OPERATOR_ALERT_URL, signed with OPERATOR_ALERT_SECRET, with no delivery row. */
export interface OperatorAlert {
  /** Its webhook-id: the same on every attempt. */
  id: string;
  type: OperatorAlertType;
  /** ISO time the alert was raised */
  createdAt: string;
  data: Record<string, unknown>;
}

export interface DeliveryJobData {
  /** The delivery row's id; for an operator alert, the alert's id. */
  deliveryId: string;
  operatorAlert?: OperatorAlert;
}

/** A receiver gets this long to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
