import type { ActivityChanges } from '../activity/activity-chain';

/** What an endpoint's activity events record of it: its URL in full (as `webhook.created` does) and its event types, never its secret. */
export interface LoggedEndpoint {
  url: string;
  events: string[];
}

/** The fields a change altered, each with its old and new value; event types compare as stored, in their order. */
export function endpointChanges(before: LoggedEndpoint, after: LoggedEndpoint): ActivityChanges {
  const changes: ActivityChanges = {};
  if (before.url !== after.url) changes.url = { old: before.url, new: after.url };
  if (before.events.join(',') !== after.events.join(',')) changes.events = { old: before.events, new: after.events };
  return changes;
}
