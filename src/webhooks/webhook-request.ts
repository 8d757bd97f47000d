import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { EVENT_TYPES, EventType } from '../events/event-types';
import { urlProblem } from './url-guard';

export interface WebhookRequest {
  url: string;
  events: EventType[];
}

const MAX_URL_LENGTH = 2048;

/**
 * Reads POST /v1/webhooks: {"url","events"}; events absent means every type. The URL must pass
 * the SSRF rules as written (the host is resolved again at every delivery).
 */
export function readWebhookRequest(body: unknown, allowPrivate: boolean): WebhookRequest | { problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: FEATURE_VALIDATION_MESSAGES.webhookBody };
  const { url, events, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof url !== 'string') return { problem: FEATURE_VALIDATION_MESSAGES.webhookBody };
  if (url.length > MAX_URL_LENGTH || urlProblem(url, allowPrivate) !== null) return { problem: FEATURE_VALIDATION_MESSAGES.webhookUrl };
  if (events === undefined) return { url, events: [...EVENT_TYPES] };
  const known: readonly string[] = EVENT_TYPES;
  if (!Array.isArray(events) || events.length === 0 || !events.every((type) => typeof type === 'string' && known.includes(type))) {
    return { problem: FEATURE_VALIDATION_MESSAGES.webhookBody };
  }
  return { url, events: [...new Set(events as EventType[])] };
}
