/** Every event type a partner can receive, in the contract's spelling. */
export const EVENT_TYPES = [
  'licence.status_changed',
  'licence.details_changed',
  'licence.not_found',
  'licence.expiring',
  'licence.replaced',
  'watch.paused',
  'watch.resumed',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** How a licence.replaced event's successor was found: by name and the watcher's date of birth, or by name alone. */
export const SUCCESSOR_CONFIDENCES = ['NAME_AND_DATE_OF_BIRTH', 'NAME_ONLY'] as const;

/** Events are kept this long, then deleted by the worker. */
export const EVENT_RETENTION_DAYS = 30;
