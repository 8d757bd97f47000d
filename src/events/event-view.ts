import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import type { EventType } from './event-types';

/** An event as partners see it, in the feed and (without id) as a webhook body. */
export interface EventView {
  id: string;
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export function eventView(event: { id: string; type: EventType; createdAt: Date; data: Record<string, unknown> }): EventView {
  return { id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.data };
}

/** The Standard Webhooks body: {"type","timestamp","data"}; the id travels in webhook-id. */
export function webhookBody(event: { type: EventType; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

export interface FeedRequest {
  after: string;
  limit: number;
}

const DEFAULT_FEED_LIMIT = 100;
const MAX_FEED_LIMIT = 1000;

/** Reads ?after=&limit= of GET /v1/events: after is a previous page's nextCursor (or 0, the start). */
export function readFeedRequest(after: unknown, limit: unknown): FeedRequest | { problem: string } {
  let pageSize = DEFAULT_FEED_LIMIT;
  if (limit !== undefined) {
    if (typeof limit !== 'string' || !/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_FEED_LIMIT) {
      return { problem: FEATURE_VALIDATION_MESSAGES.eventsLimit };
    }
    pageSize = Number(limit);
  }
  if (after === undefined) return { after: '0', limit: pageSize };
  if (typeof after !== 'string' || !/^\d{1,18}$/.test(after)) return { problem: FEATURE_VALIDATION_MESSAGES.eventsAfter };
  return { after: String(BigInt(after)), limit: pageSize };
}
