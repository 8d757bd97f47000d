import type { RegisterLicence } from '@lvs/register';
import { SANDBOX_LICENCES } from '@lvs/test-register';
import type { NameSearchResult } from '../lookups/lookup-outcome';
import { stoppedBeingActive, successorOf } from './successor';

const CHECKED_AT = '2026-11-25T10:00:00.000Z';
const EXPIRED: RegisterLicence = SANDBOX_LICENCES.renewedOld;
const ACTIVE: RegisterLicence = { ...EXPIRED, status: 'Active' };
const NEW: RegisterLicence = SANDBOX_LICENCES.renewedNew;
const found = (...licences: RegisterLicence[]): NameSearchResult => ({ status: 'FOUND', licences, checkedAt: CHECKED_AT });

describe('stoppedBeingActive', () => {
  it.each(['Expired', 'Replaced', 'Surrendered', 'Revoked'])('is true when an Active licence turns %s', (status) => {
    expect(stoppedBeingActive(ACTIVE, { status: 'FOUND', licence: { ...ACTIVE, status }, checkedAt: CHECKED_AT })).toBe(true);
  });

  it('is true when an Active licence is gone from the register', () => {
    expect(stoppedBeingActive(ACTIVE, { status: 'NOT_FOUND', licence: null, checkedAt: CHECKED_AT })).toBe(true);
  });

  it('is false while it stays Active, when it was not Active before, on the baseline, and on TOO_MANY_RESULTS', () => {
    expect(stoppedBeingActive(ACTIVE, { status: 'FOUND', licence: ACTIVE, checkedAt: CHECKED_AT })).toBe(false);
    expect(stoppedBeingActive(EXPIRED, { status: 'NOT_FOUND', licence: null, checkedAt: CHECKED_AT })).toBe(false);
    expect(stoppedBeingActive(null, { status: 'NOT_FOUND', licence: null, checkedAt: CHECKED_AT })).toBe(false);
    expect(stoppedBeingActive(ACTIVE, { status: 'TOO_MANY_RESULTS', licence: null, checkedAt: CHECKED_AT })).toBe(false);
  });
});

describe('successorOf', () => {
  it('names the one other Active licence', () => {
    expect(successorOf(found(EXPIRED, NEW), EXPIRED.licenceNumber)).toBe(NEW);
  });

  it('names none when the only Active licence is the old number itself, or when nothing is found', () => {
    expect(successorOf(found({ ...NEW, licenceNumber: EXPIRED.licenceNumber }), EXPIRED.licenceNumber)).toBeNull();
    expect(successorOf({ status: 'NOT_FOUND', licences: [], checkedAt: CHECKED_AT }, EXPIRED.licenceNumber)).toBeNull();
    expect(successorOf({ status: 'TOO_MANY_RESULTS', licences: [], checkedAt: CHECKED_AT }, EXPIRED.licenceNumber)).toBeNull();
  });

  it('names none among several Active candidates, or Expired ones only', () => {
    expect(successorOf(found(EXPIRED, NEW, { ...NEW, licenceNumber: '1230112233445599' }), EXPIRED.licenceNumber)).toBeNull();
    expect(successorOf(found(EXPIRED, { ...NEW, status: 'Expired' }), EXPIRED.licenceNumber)).toBeNull();
  });
});
