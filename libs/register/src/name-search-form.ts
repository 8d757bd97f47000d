import type { NameSearch } from './register-licence';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The form the register's name search takes. Its date format is not published; UK forms write DD/MM/YYYY
 * (REGISTER.md "Search by name"), so this is the one place to change should the register want another.
 */
const registerDateOfBirth = (year: string, month: string, day: string): string => `${day}/${month}/${year}`;

/**
 * The body of a SearchPublicRegisterBySurname request: all six fields, empty when unused, as the form
 * itself sends them. Throws TypeError before anything is sent for a blank surname or a date that is not a
 * real YYYY-MM-DD day, since the register would only answer them with a page we cannot read.
 */
export function nameSearchForm(search: NameSearch): URLSearchParams {
  const surname = search.surname.trim();
  if (surname === '') throw new TypeError('A name search needs a surname');
  return new URLSearchParams({
    Surname: surname,
    FirstName: search.firstName?.trim() ?? '',
    MiddleName: search.middleName?.trim() ?? '',
    DateOfBirth: search.dateOfBirth === undefined ? '' : formDateOfBirth(search.dateOfBirth),
    Role: search.role?.trim() ?? '',
    LicenseSector: search.licenceSector?.trim() ?? '',
  });
}

function formDateOfBirth(isoDate: string): string {
  const parts = ISO_DATE.exec(isoDate);
  // Date.UTC rolls 2000-02-30 over into March, so the day must also survive a round trip.
  if (parts === null || new Date(Date.UTC(+parts[1], +parts[2] - 1, +parts[3])).toISOString().slice(0, 10) !== isoDate) {
    throw new TypeError('A name search date of birth must be a YYYY-MM-DD date');
  }
  return registerDateOfBirth(parts[1], parts[2], parts[3]);
}
