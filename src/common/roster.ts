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
