/**
 * What other modules may say in SQL about verification_records, for a statement that reads it in one go with their own
 * tables (the operator console's figures): each answer as a relation `alias` with the columns user_id, answered_at,
 * status, channel and source (`register`, or `cache`: whether the answer took a register lookup); never the record itself.
 */
export function answers(alias: string): string {
  return `(SELECT user_id, answered_at, status, channel, record->>'source' AS source FROM verification_records) ${alias}`;
}
