/**
 * What other modules may say in SQL about batches (the operator console's partner page): the batches as a relation
 * `alias` with id, user_id, status, total, created_at, and pending (items still without an answer).
 */
export function batchProgressRows(alias: string): string {
  return `(SELECT b.id, b.user_id, b.status, b.total, b.created_at,
                  (SELECT count(*)::int FROM batch_items i WHERE i.batch_id = b.id AND i.status = 'PENDING') AS pending
             FROM batches b) ${alias}`;
}
