import type { SandboxLicence } from './sandbox-data';
import { SANDBOX_NUMBERS } from './sandbox-numbers';

/** A licence of the sandbox's data as a register client reads it from its card. */
export type ShownLicence = Omit<SandboxLicence, 'middleName' | 'dateOfBirth'> & { dateOfBirth: null; licenceType: null };

/** What a card shows of a sandbox licence: the middle name and date of birth only filter a name search. */
export function shownOnCard({ middleName: _middleName, dateOfBirth: _dateOfBirth, ...shown }: SandboxLicence): ShownLicence {
  return { ...shown, dateOfBirth: null, licenceType: null };
}

/**
 * Licences of the shipped data set as a register client reads them from the sandbox's pages: the public register
 * shows no date of birth or licence type, so those are null. Tests compare answers with these rather than
 * writing the people out again.
 */
export const SANDBOX_LICENCES = {
  /** JANE DOE at SANDBOX_NUMBERS.active. */
  active: {
    licenceNumber: SANDBOX_NUMBERS.active,
    firstName: 'JANE',
    surname: 'DOE',
    dateOfBirth: null,
    licenceType: null,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: '2027-06-06',
    status: 'Active',
    statusReason: null,
    additionalConditions: null,
  },
  /** MARY ANNE O'BRIEN at SANDBOX_NUMBERS.expired. */
  expired: {
    licenceNumber: SANDBOX_NUMBERS.expired,
    firstName: 'MARY ANNE',
    surname: "O'BRIEN",
    dateOfBirth: null,
    licenceType: null,
    role: 'Non Front Line',
    licenceSector: null,
    expiryDate: '2024-02-14',
    status: 'Expired',
    statusReason: null,
    additionalConditions: null,
  },
  /** OLIVIA HUGHES's Expired licence at SANDBOX_NUMBERS.renewedOld. */
  renewedOld: {
    licenceNumber: SANDBOX_NUMBERS.renewedOld,
    firstName: 'OLIVIA',
    surname: 'HUGHES',
    dateOfBirth: null,
    licenceType: null,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: '2024-05-31',
    status: 'Expired',
    statusReason: null,
    additionalConditions: null,
  },
  /** OLIVIA HUGHES's Active licence at SANDBOX_NUMBERS.renewedNew. */
  renewedNew: {
    licenceNumber: SANDBOX_NUMBERS.renewedNew,
    firstName: 'OLIVIA',
    surname: 'HUGHES',
    dateOfBirth: null,
    licenceType: null,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate: '2028-05-31',
    status: 'Active',
    statusReason: null,
    additionalConditions: null,
  },
} as const;
