import { ACTIVITY_ACTIONS, ActivityChanges, ActorType } from '../activity/activity-chain';
import type { ActivityEvent } from '../activity/activity-log';
import { neutraliseFormula } from '../common/csv-cells';

/** Who the account's actors are by name: its members' display names and its keys' first characters, by id. */
export interface ActorNames {
  members: ReadonlyMap<string, string>;
  keys: ReadonlyMap<string, string>;
}

/** Each kind of actor in words, as the Activity page's filter offers them. */
export const ACTOR_TYPE_WORDS: Readonly<Record<ActorType, string>> = {
  member: 'A member',
  key: 'An API key',
  operator: 'The service’s operator',
  cli: 'The operator’s admin command',
  system: 'The service itself',
};

/** What the Activity page's filter offers, whatever the account holds: every action, every kind of actor. */
export const ACTIVITY_FORM = { actions: ACTIVITY_ACTIONS, actorTypes: Object.entries(ACTOR_TYPE_WORDS) };

/**
 * Who made a change, in words: a member by their display name (removed ones keep theirs), a key by its first
 * characters as the Keys page shows them, the operator and the service without a name. A member or key the account
 * no longer knows (deleted) is named by its kind.
 */
export function actorWords(actor: { type: ActorType; id: string | null }, names: ActorNames): string {
  const known =
    actor.id === null ? undefined : actor.type === 'member' ? names.members.get(actor.id) : actor.type === 'key' ? names.keys.get(actor.id) : undefined;
  if (known === undefined) return ACTOR_TYPE_WORDS[actor.type];
  return actor.type === 'key' ? `Key ${known}…` : known;
}

/** What kinds of things an event changed, in words, for those the account names otherwise. */
const TARGET_WORDS: Readonly<Record<string, string>> = { account: 'The account', watchlist: 'The watchlist', sso: 'Single sign-on' };

/**
 * What an event changed, in words: a member by their name, a key by its first characters, the account and its
 * watchlist as such, anything else (a webhook endpoint) by its kind and the first characters of its id.
 */
export function targetWords(target: { type: string; id: string }, names: ActorNames): string {
  const named = target.type === 'member' ? names.members.get(target.id) : target.type === 'key' ? names.keys.get(target.id) : undefined;
  if (named !== undefined) return target.type === 'key' ? `Key ${named}…` : named;
  return TARGET_WORDS[target.type] ?? `${target.type[0].toUpperCase()}${target.type.slice(1)} ${target.id.slice(0, 8)}…`;
}

/** The longest value a summary shows of a field: a webhook's URL may be long, the table stays readable. */
const VALUE_MAX = 60;

function valueWords(value: unknown): string {
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.map(valueWords).join(', ') : JSON.stringify(value);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}

/**
 * An event's changes in a line: `field: old → new`, a field that did not exist before `field: new`, one that no
 * longer exists `field: old → none`. The log holds no secret (a secret's change is logged as `set` or `changed`),
 * so nothing is hidden here; long values are cut, the CSV has them whole.
 */
export function changesWords(changes: ActivityChanges): string {
  return Object.entries(changes)
    .map(([field, { old, new: now }]) => {
      if (old === null) return `${field}: ${valueWords(now)}`;
      return `${field}: ${valueWords(old)} → ${now === null ? 'none' : valueWords(now)}`;
    })
    .join('; ');
}

/** The CSV export's header: the API's event flattened, and beside the actor's id their name in words. */
export const ACTIVITY_CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorType',
  'actorId',
  'actorName',
  'action',
  'targetType',
  'targetId',
  'clientAddress',
  'userAgent',
  'changes',
  'hash',
  'previousHash',
] as const;

/**
 * One event as the export's cells, `changes` as JSON; formula-like cells neutralised as in the other downloads (a
 * User-Agent and a member's name are other people's text).
 */
export function activityCsvCells(event: ActivityEvent, names: ActorNames): string[] {
  return [
    event.id,
    event.occurredAt,
    event.actor.type,
    event.actor.id ?? '',
    actorWords(event.actor, names),
    event.action,
    event.target.type,
    event.target.id,
    event.clientAddress ?? '',
    event.userAgent ?? '',
    JSON.stringify(event.changes),
    event.hash,
    event.previousHash,
  ].map(neutraliseFormula);
}
