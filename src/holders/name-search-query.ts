import type { NameSearch } from '@lvs/register';

const FIELDS = ['surname', 'firstName', 'middleName', 'dateOfBirth', 'role', 'licenceSector'] as const;

/**
 * A name search as the register is asked it, and as two searches are told apart: each field trimmed, its runs of
 * white space made one space, upper case (the register ignores case); fields left empty are dropped. Apostrophes
 * and hyphens stay, since the register may not find "OBRIEN" for "O'BRIEN".
 */
export function normaliseNameSearch(search: NameSearch): NameSearch {
  const normalised: NameSearch = { surname: '' };
  for (const field of FIELDS) {
    const value = search[field]?.trim().replace(/\s+/g, ' ').toUpperCase();
    if (value !== undefined && value !== '') normalised[field] = value;
  }
  return normalised;
}

/** The text whose digest names a normalised search: its fields in a fixed order, so equal searches give equal text. */
export function nameSearchText(search: NameSearch): string {
  return JSON.stringify(FIELDS.map((field) => search[field] ?? null));
}

/** The person a search names, as its date-of-birth bound counts them: the normalised surname and first name. */
export function searchedPersonText(search: NameSearch): string {
  const { surname, firstName } = normaliseNameSearch(search);
  return JSON.stringify([surname, firstName ?? null]);
}

/**
 * What the quota ledger counts for a search: "N" and 15 hex digits of its digest. Ledger rows hold 16 characters;
 * a licence number is 16 digits, so the two never meet, and the row tells nothing of the search.
 */
export function searchQuotaUnit(searchKey: string): string {
  return `N${searchKey.slice(0, 15)}`;
}
