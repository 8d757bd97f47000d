import type { SandboxLicence } from '@lvs/test-register';

/** A simulated change of a test licence: any of these fields (POST /v1/test/licences/{licenceNumber}). */
export interface SimulatedChange {
  status?: string;
  statusReason?: string | null;
  expiryDate?: string;
  successorLicenceNumber?: string;
}

/** A licence the test register did not know, as a change first creates it: Active, TEST HOLDER, a year to run. */
export function newTestLicence(licenceNumber: string, today: Date): SandboxLicence {
  return {
    licenceNumber,
    firstName: 'TEST',
    middleName: null,
    surname: 'HOLDER',
    dateOfBirth: '1990-01-01',
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: aYearAfter(today),
    status: 'Active',
    statusReason: null,
    additionalConditions: null,
  };
}

/**
 * The licence after a change: `current` (null when the test register has no licence for the number, then created as
 * newTestLicence says) with the change's fields. The successor is not a field of the card: it is another licence.
 */
export function applySimulatedChange(licenceNumber: string, current: SandboxLicence | null, change: SimulatedChange, today: Date): SandboxLicence {
  const { status, statusReason, expiryDate } = change;
  // A field left out (or undefined, as a DTO instance holds it) keeps its value; null clears only the status reason.
  const given = Object.fromEntries(Object.entries({ status, statusReason, expiryDate }).filter(([, value]) => value !== undefined));
  return { ...(current ?? newTestLicence(licenceNumber, today)), ...given };
}

/**
 * The successor a change names, unless the test register has a licence there already: Active, the same holder
 * (names and date of birth, so that a name search finds both), a year to run.
 */
export function successorLicence(of: SandboxLicence, successorLicenceNumber: string, today: Date): SandboxLicence {
  return { ...of, licenceNumber: successorLicenceNumber, status: 'Active', statusReason: null, expiryDate: aYearAfter(today) };
}

/** YYYY-MM-DD a year after today (UTC); 29 February moves to 1 March. */
function aYearAfter(today: Date): string {
  const next = new Date(Date.UTC(today.getUTCFullYear() + 1, today.getUTCMonth(), today.getUTCDate()));
  return next.toISOString().slice(0, 10);
}
