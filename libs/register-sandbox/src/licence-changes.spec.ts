import { applyLicenceChange, LicenceChangeError, parseLicenceChange } from './licence-changes';
import type { SandboxLicence } from '@lvs/test-register';

const card: SandboxLicence = {
  licenceNumber: '1234567890123456',
  firstName: 'ALEX',
  middleName: null,
  surname: 'SMITH',
  dateOfBirth: '1991-06-30',
  role: 'Front Line',
  licenceSector: 'Security Guarding',
  expiryDate: '2028-01-31',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
};

describe('parseLicenceChange', () => {
  it('takes new values for the changeable fields', () => {
    expect(parseLicenceChange({ status: 'Revoked', statusReason: 'Conviction' })).toEqual({ status: 'Revoked', statusReason: 'Conviction' });
    expect(parseLicenceChange({ expiryDate: '2027-01-01', licenceSector: null })).toEqual({ expiryDate: '2027-01-01', licenceSector: null });
    expect(parseLicenceChange({ surname: 'SMYTHE' })).toEqual({ surname: 'SMYTHE' });
  });

  it('takes a removal', () => {
    expect(parseLicenceChange({ removed: true })).toEqual({ removed: true });
  });

  it.each([
    [null, 'body must be a JSON object'],
    [{}, 'body must be {"removed":true} or some of status, statusReason, expiryDate, role, licenceSector, additionalConditions, firstName, surname'],
    [
      { dateOfBirth: '1990-01-01' },
      'body must be {"removed":true} or some of status, statusReason, expiryDate, role, licenceSector, additionalConditions, firstName, surname',
    ],
    [
      { removed: true, status: 'Active' },
      'body must be {"removed":true} or some of status, statusReason, expiryDate, role, licenceSector, additionalConditions, firstName, surname',
    ],
    [{ status: null }, 'status must be a non-empty string'],
    [{ expiryDate: '31/01/2028' }, 'expiryDate must be a YYYY-MM-DD date'],
  ])('refuses %j', (body, message) => {
    expect(() => parseLicenceChange(body)).toThrow(new LicenceChangeError(message));
  });
});

describe('applyLicenceChange', () => {
  it('changes every card of the number and keeps the other fields', () => {
    expect(applyLicenceChange([card], { status: 'Suspended' })).toEqual([{ ...card, status: 'Suspended' }]);
  });

  it('removes the number', () => {
    expect(applyLicenceChange([card], { removed: true })).toEqual([]);
  });

  it('has nothing to change for a number without a licence', () => {
    expect(applyLicenceChange(undefined, { status: 'Active' })).toBeNull();
    expect(applyLicenceChange([], { status: 'Active' })).toBeNull();
  });
});
