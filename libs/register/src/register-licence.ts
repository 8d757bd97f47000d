/** One licence as the public register shows it. */
export interface RegisterLicence {
  licenceNumber: string;
  firstName: string;
  surname: string;
  /** YYYY-MM-DD when the page shows a "Date of birth" (the public card does not), else null. */
  dateOfBirth: string | null;
  /** When the page shows a "Licence type" (the public card does not), else null. */
  licenceType: string | null;
  role: string;
  /** Null when the register leaves it empty (non-front-line licences). */
  licenceSector: string | null;
  /** YYYY-MM-DD */
  expiryDate: string;
  /** The register's own word, e.g. "Active"; words we have not seen pass through unchanged. */
  status: string;
  statusReason: string | null;
  additionalConditions: string | null;
}

export type LookupOutcome = { kind: 'found'; licence: RegisterLicence } | { kind: 'not_found' } | { kind: 'too_many_results' };

/** A search by name (REGISTER.md "Search by name"): the surname is required, every other field narrows it. */
export interface NameSearch {
  surname: string;
  firstName?: string;
  middleName?: string;
  /** YYYY-MM-DD. Never shown on a card, but a card found with it confirms it. */
  dateOfBirth?: string;
  /** "Front Line" or "Non Front Line". */
  role?: string;
  /** One of the register's sector names, e.g. "Door Supervision". */
  licenceSector?: string;
}

export type NameSearchOutcome = { kind: 'found'; licences: RegisterLicence[] } | { kind: 'not_found' } | { kind: 'too_many_results' };
