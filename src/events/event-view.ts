import type { KeyMode } from '../auth/key-mode';
import type { EventType } from './event-types';

/** An event as partners see it, in the feed and (without id) as a webhook body. */
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

/**
 * The Standard Webhooks body: {"type","timestamp","data","mode"}; the id travels in webhook-id. The mode is the owning
 * user's side, so that a receiver taking both live and test events on one URL can tell them apart.
 */
export function webhookBody(event: { type: EventType; createdAt: Date; data: Record<string, unknown> }, mode: KeyMode): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data, mode });
}

/** An event's sequence number: at most 18 digits, so that it stays within PostgreSQL's bigint. */
export const FEED_CURSOR_MAX_LENGTH = 18;

/** The feed's cursor: a previous page's nextCursor, the sequence number of its last event (0: the start). */
export function readFeedCursor(text: string): string | null {
  return /^[0-9]{1,18}$/.test(text) ? String(BigInt(text)) : null;
}
