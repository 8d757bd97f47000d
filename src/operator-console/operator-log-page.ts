import { writeNewestFirstCursor } from '../validation/paging';

/** A page of the operators' log from its up to limit + 1 rows: the lines shown, and the next page's cursor if more follow. */
export function operatorLogPage<Line extends { id: string; occurredAt: string }>(
  rows: Line[],
  limit: number,
): { lines: Line[]; nextCursor: string | null } {
  const lines = rows.slice(0, limit);
  const last = lines.at(-1);
  return { lines, nextCursor: rows.length > limit && last ? writeNewestFirstCursor({ at: last.occurredAt, id: last.id }) : null };
}
