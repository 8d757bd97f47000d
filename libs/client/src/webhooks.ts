import { Webhook } from 'standardwebhooks';
import type { webhooks } from './generated/openapi.js';

/** Every event the service sends to webhook endpoints: the bodies of the document's `webhooks` section. */
export type WebhookEvent = {
  [Type in keyof webhooks]: webhooks[Type]['post'] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
}[keyof webhooks];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** A delivery whose signature, timestamp or body does not check out: answer it with 400 and drop it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(
    entries.flatMap(([name, value]) => (value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(' ') : value]])),
  );
}

/**
 * Checks a delivery as Standard Webhooks says: a v1 signature by `secret` (any of several, during a rotation)
 * over webhook-id, webhook-timestamp and the raw body, and a timestamp within 5 minutes of now, so that a
 * recorded delivery cannot be replayed later. Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  try {
    return new Webhook(secret).verify(body, headerRecord(headers)) as WebhookEvent;
  } catch (failure) {
    throw new WebhookVerificationError((failure as Error).message);
  }
}
