import { SANDBOX_LICENCES } from '@lvs/test-register';
import type { NameSearchResult } from '../lookups/lookup-outcome';
import { dateOfBirthCheck, holderCheck } from './holder-check';

const CHECKED_AT = '2026-11-25T10:00:00.000Z';
const OLD = SANDBOX_LICENCES.renewedOld;
const NEW = SANDBOX_LICENCES.renewedNew;
const found = (...licences: (typeof OLD | typeof NEW)[]): NameSearchResult => ({ status: 'FOUND', licences, checkedAt: CHECKED_AT });

describe('dateOfBirthCheck', () => {
  it('confirms when the search finds the number checked, among others too', () => {
    expect(dateOfBirthCheck(found(NEW), NEW.licenceNumber)).toBe('CONFIRMED');
    expect(dateOfBirthCheck(found(OLD, NEW), NEW.licenceNumber)).toBe('CONFIRMED');
  });

  it('does not confirm when it finds nothing, or only other numbers', () => {
    expect(dateOfBirthCheck({ status: 'NOT_FOUND', licences: [], checkedAt: CHECKED_AT }, NEW.licenceNumber)).toBe('NOT_CONFIRMED');
    expect(dateOfBirthCheck(found(OLD), NEW.licenceNumber)).toBe('NOT_CONFIRMED');
  });

  it('cannot tell when the register finds too many', () => {
    expect(dateOfBirthCheck({ status: 'TOO_MANY_RESULTS', licences: [], checkedAt: CHECKED_AT }, NEW.licenceNumber)).toBe('UNDETERMINED');
  });
});

describe('holderCheck', () => {
  it('compares the name and says NOT_CHECKED without a date of birth', () => {
    expect(holderCheck(NEW, { firstName: 'Olivia', surname: 'Hughes' }, null)).toEqual({ name: 'MATCH', dateOfBirth: 'NOT_CHECKED' });
  });

  it('reads the date of birth from its search', () => {
    expect(holderCheck(NEW, { firstName: 'O', surname: 'Hughes' }, found(OLD, NEW))).toEqual({ name: 'PARTIAL', dateOfBirth: 'CONFIRMED' });
  });
});
