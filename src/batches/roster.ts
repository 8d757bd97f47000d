import { createHash } from 'node:crypto';

/** One row of a roster: a licence number and the partner's own reference for it. */
export interface RosterEntry {
  licenceNumber: string;
  reference: string | null;
}

export const MAX_BATCH_ITEMS = 1000;

interface RosterRow {
  licenceNumber: string;
  reference?: string | null;
}

/** The rows of a validated roster, in either of its shapes; an empty reference counts as none. */
export function rosterEntries(roster: { items?: RosterRow[]; licenceNumbers?: RosterRow[] }): RosterEntry[] {
  return (roster.items ?? roster.licenceNumbers ?? []).map(({ licenceNumber, reference }) => ({ licenceNumber, reference: reference || null }));
}

/** Each number once, in a stable order (charging takes its row locks in this order). */
export function distinctNumbers(entries: RosterEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.licenceNumber))].sort();
}

/** Identifies a request's rows, so that an Idempotency-Key replayed with other rows is refused. */
export function rosterHash(entries: RosterEntry[]): string {
  return createHash('sha256').update(JSON.stringify(entries.map((entry) => [entry.licenceNumber, entry.reference]))).digest('hex');
}
