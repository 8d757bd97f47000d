import { isIsoDate, searchKey } from './sandbox-data';
import type { SandboxLicence } from './sandbox-data';

export type SandboxNameSearchAnswer = { kind: 'too_many_results' } | { kind: 'licences'; licences: SandboxLicence[] };

/** The text filters of the register's form, each with the licence field it narrows. */
const TEXT_FILTERS = [
  ['FirstName', 'firstName'],
  ['MiddleName', 'middleName'],
  ['Role', 'role'],
  ['LicenseSector', 'licenceSector'],
] as const;
const UK_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/**
 * The sandbox's answer to SearchPublicRegisterBySurname. The real register's matching is not published, so
 * the sandbox keeps it plain: each field given must equal the licence's, ignoring case and extra white space;
 * the date of birth, as DD/MM/YYYY or YYYY-MM-DD, must equal the licence's, so a licence without one never
 * fits a search with one. A blank surname or an unreadable date finds nothing, as a number that is not one
 * does; a surname in tooManySurnames is too broad whatever the filters, so that tests can count on it.
 */
export function searchSandboxByName(
  form: URLSearchParams,
  licences: Iterable<SandboxLicence>,
  tooManySurnames: ReadonlySet<string>,
): SandboxNameSearchAnswer {
  const surname = searchKey(form.get('Surname') ?? '');
  if (tooManySurnames.has(surname)) return { kind: 'too_many_results' };
  const dateOfBirthText = (form.get('DateOfBirth') ?? '').trim();
  const dateOfBirth = dateOfBirthText === '' ? null : isoDateOfBirth(dateOfBirthText);
  if (surname === '' || dateOfBirth === undefined) return { kind: 'licences', licences: [] };

  const filters = TEXT_FILTERS.map(([formField, field]) => [searchKey(form.get(formField) ?? ''), field] as const).filter(([wanted]) => wanted !== '');
  const fits = (licence: SandboxLicence): boolean =>
    searchKey(licence.surname) === surname &&
    (dateOfBirth === null || licence.dateOfBirth === dateOfBirth) &&
    filters.every(([wanted, field]) => searchKey(licence[field] ?? '') === wanted);
  return { kind: 'licences', licences: [...licences].filter(fits) };
}

/** YYYY-MM-DD from either accepted form; undefined when it is neither, or no real day. */
function isoDateOfBirth(text: string): string | undefined {
  const uk = UK_DATE.exec(text);
  const iso = uk === null ? text : `${uk[3]}-${uk[2]}-${uk[1]}`;
  return isIsoDate(iso) ? iso : undefined;
}
