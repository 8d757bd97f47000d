/**
 * What other modules may say in SQL about watch_entries, for a statement that reads it in one go with their own tables
 * (the operator console's partner list): the entries as a relation `alias` with the columns user_id and state.
 */
export function watchedNumbers(alias: string): string {
  return `(SELECT user_id, state FROM watch_entries) ${alias}`;
}
