import { createHash } from 'node:crypto';

/** Who the partner says holds a row's licence; checked as verify-holder checks it. */
export interface RosterHolder {
  firstName: string;
  surname: string;
  dateOfBirth?: string;
}

/** One row of a roster: a licence number, the partner's own reference for it, and optionally its holder. */
export interface RosterEntry {
  licenceNumber: string;
  reference: string | null;
  holder: RosterHolder | null;
}

export const MAX_BATCH_ITEMS = 1000;

interface RosterRow {
  licenceNumber: string;
  reference?: string | null;
  firstName?: string;
  surname?: string;
  dateOfBirth?: string;
}

/** The rows of a validated roster, in either of its shapes; an empty reference counts as none. */
export function rosterEntries(roster: { items?: RosterRow[]; licenceNumbers?: RosterRow[] }): RosterEntry[] {
  return (roster.items ?? roster.licenceNumbers ?? []).map(({ licenceNumber, reference, firstName, surname, dateOfBirth }) => ({
    licenceNumber,
    reference: reference || null,
    // The DTO lets the names through only together.
    holder: firstName !== undefined && surname !== undefined ? { firstName, surname, ...(dateOfBirth === undefined ? {} : { dateOfBirth }) } : null,
  }));
}

/** Each number once, in a stable order (charging takes its row locks in this order). */
export function distinctNumbers(entries: RosterEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.licenceNumber))].sort();
}

/**
 * Identifies a request's rows, so that an Idempotency-Key replayed with other rows is refused. A date of birth
 * enters it only as `digest` makes it (a keyed HMAC): a plain hash of a roster would let a date be guessed back.
 */
export function rosterHash(entries: RosterEntry[], digest: (dateOfBirth: string) => string): string {
  const rows = entries.map(({ licenceNumber, reference, holder }) => [
    licenceNumber,
    reference,
    ...(holder ? [holder.firstName, holder.surname, holder.dateOfBirth === undefined ? null : digest(holder.dateOfBirth)] : []),
  ]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}
