import type { KeyMode } from '../auth/key-mode';
import type { EventType } from './event-types';

/** An event as partners see it, in the feed and (without id and mode) as a webhook body. */
export interface EventView {
  id: string;
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
  mode: KeyMode;
}

export function eventView(event: { id: string; type: EventType; createdAt: Date; data: Record<string, unknown> }, mode: KeyMode): EventView {
  return { id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.data, mode };
}

/** The Standard Webhooks body: {"type","timestamp","data"}; the id travels in webhook-id. */
export function webhookBody(event: { type: EventType; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

/** The feed's cursor: a previous page's nextCursor, the sequence number of its last event (0: the start). */
export function readFeedCursor(text: string): string | null {
  return /^[0-9]{1,18}$/.test(text) ? String(BigInt(text)) : null;
}
