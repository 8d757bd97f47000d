import { applySimulatedChange, newTestLicence, successorLicence } from './simulated-change';

const today = new Date('2026-11-27T10:00:00Z');
const active = {
  licenceNumber: '4000000000000001',
  firstName: 'TEST',
  middleName: null,
  surname: 'ACTIVE',
  dateOfBirth: '1990-01-01',
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2030-01-01',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
};

describe('simulated changes of test licences', () => {
  it('changes only the fields given', () => {
    expect(applySimulatedChange(active.licenceNumber, active, { status: 'Revoked', statusReason: 'Revoked in a test' }, today)).toEqual({
      ...active,
      status: 'Revoked',
      statusReason: 'Revoked in a test',
    });
    expect(applySimulatedChange(active.licenceNumber, active, { expiryDate: '2026-12-10' }, today)).toEqual({ ...active, expiryDate: '2026-12-10' });
    expect(applySimulatedChange(active.licenceNumber, active, { status: undefined, statusReason: undefined, expiryDate: undefined }, today)).toEqual(
      active,
    );
  });

  it('clears a status reason with null, and keeps the successor off the card', () => {
    const revoked = { ...active, status: 'Revoked', statusReason: 'Revoked in a test' };
    expect(applySimulatedChange(active.licenceNumber, revoked, { statusReason: null, successorLicenceNumber: '4000000000000099' }, today)).toEqual({
      ...revoked,
      statusReason: null,
    });
  });

  it('creates a number the test register does not know as Active, TEST HOLDER, born 1990-01-01, a year to run, then changes it', () => {
    expect(newTestLicence('4123412341234123', today)).toEqual({
      licenceNumber: '4123412341234123',
      firstName: 'TEST',
      middleName: null,
      surname: 'HOLDER',
      dateOfBirth: '1990-01-01',
      role: 'Front Line',
      licenceSector: 'Door Supervision',
      expiryDate: '2027-11-27',
      status: 'Active',
      statusReason: null,
      additionalConditions: null,
    });
    expect(applySimulatedChange('4123412341234123', null, { status: 'Suspended' }, today)).toEqual({
      ...newTestLicence('4123412341234123', today),
      status: 'Suspended',
    });
  });

  it('makes the successor an Active licence of the same holder, a year to run', () => {
    const revoked = { ...active, status: 'Revoked', statusReason: 'Revoked in a test', expiryDate: '2026-12-01' };
    expect(successorLicence(revoked, '4000000000000099', today)).toEqual({
      ...active,
      licenceNumber: '4000000000000099',
      expiryDate: '2027-11-27',
    });
  });

  it('moves a year on from 29 February to 1 March', () => {
    expect(newTestLicence('4123412341234123', new Date('2028-02-29T00:00:00Z')).expiryDate).toBe('2029-03-01');
  });
});
