import { createHash } from 'node:crypto';

/** What set a chain going: the previous hash of a user's first event. */
export const GENESIS_HASH = '0'.repeat(64);

export type ActorType = 'member' | 'key' | 'operator' | 'cli' | 'system';
export const ACTOR_TYPES: readonly ActorType[] = ['member', 'key', 'operator', 'cli', 'system'];

export const ACTIVITY_ACTIONS = [
  'key.created',
  'key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.disabled',
  'member.removed',
  'member.factor_added',
  'member.factor_reset',
  'member.factor_removed',
  'member.password_reset',
  'member.signed_in',
  'member.sign_in_failed',
  'session.ended',
  'sso.changed',
  'watchlist.imported',
  'account.quota_changed',
  'account.limits_changed',
  'account.disabled',
  'account.enabled',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Each changed field with its old and new value; never a secret. */
export type ActivityChanges = Record<string, { old: unknown; new: unknown }>;

/** An event as it is hashed: everything stored of it but its hash and the previous one. */
export interface ActivityContent {
  id: string;
  userId: string;
  /** its place in its user's chain, from 1 */
  seq: number;
  occurredAt: string;
  actor: { type: ActorType; id: string | null };
  action: ActivityAction;
  target: { type: string; id: string };
  clientAddress: string | null;
  userAgent: string | null;
  changes: ActivityChanges;
}

export interface ChainedEvent extends ActivityContent {
  previousHash: string;
  hash: string;
}

/** JSON with every object's keys sorted and no spaces, so that the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) over the previous event's hash and this event's canonical JSON. */
export function eventHash(previousHash: string, content: ActivityContent): string {
  return createHash('sha256').update(previousHash).update(canonicalJson(content)).digest('hex');
}

/** Why an event breaks its chain. */
export type ChainBreak = { id: string; seq: number; reason: 'content' | 'link' | 'gap' } | { id: null; seq: number; reason: 'head' };

/**
 * The first event of a user's chain (oldest first, as stored) whose hash does not match its content, whose previous
 * hash is not the hash of the event before it, or that does not follow it in seq; null when the chain holds. The
 * oldest event kept is trusted to link to what retention pruned. `head` is what the chain's head row says of its
 * newest event: a chain that ends elsewhere lost its newest events (reason 'head', at the seq the head names).
 */
export function firstBreak(events: readonly ChainedEvent[], head: { seq: number; hash: string }): ChainBreak | null {
  for (const [index, event] of events.entries()) {
    const before = events[index - 1];
    if (before && event.seq !== before.seq + 1) return { id: event.id, seq: event.seq, reason: 'gap' };
    if (before ? event.previousHash !== before.hash : event.seq === 1 && event.previousHash !== GENESIS_HASH) {
      return { id: event.id, seq: event.seq, reason: 'link' };
    }
    const { previousHash, hash, ...content } = event;
    if (eventHash(previousHash, content) !== hash) return { id: event.id, seq: event.seq, reason: 'content' };
  }
  const newest = events.at(-1);
  const endsAtHead = newest ? newest.seq === head.seq && newest.hash === head.hash : true;
  return endsAtHead ? null : { id: null, seq: head.seq, reason: 'head' };
}
