/**
 * What other modules may say in SQL about the events table, for statements that must read it in one go with their
 * own tables (a delivery joined with its event): the stored events as a relation `alias` with the columns seq, id,
 * user_id, type, data and created_at. Anything else they ask EventsService.
 */
export function storedEvents(alias: string): string {
  return `(SELECT seq, id, user_id, type, data, created_at FROM events) ${alias}`;
}
