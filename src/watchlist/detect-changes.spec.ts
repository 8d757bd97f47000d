import type { RegisterLicence } from '@lvs/register';
import type { FinalResult } from '../lookups/lookup-outcome';
import { detectChanges } from './detect-changes';

const licence: RegisterLicence = {
  licenceNumber: '1234567890123456',
  firstName: 'ALEX',
  surname: 'SMITH',
  dateOfBirth: null,
  licenceType: null,
  role: 'Front Line',
  licenceSector: 'Security Guarding',
  expiryDate: '2028-01-31',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
};
const found = (changes: Partial<RegisterLicence> = {}): FinalResult => ({
  status: 'FOUND',
  licence: { ...licence, ...changes },
  checkedAt: '2026-11-22T10:00:00.000Z',
});
const notFound: FinalResult = { status: 'NOT_FOUND', licence: null, checkedAt: '2026-11-22T10:00:00.000Z' };
const tooMany: FinalResult = { status: 'TOO_MANY_RESULTS', licence: null, checkedAt: '2026-11-22T10:00:00.000Z' };

describe('detectChanges', () => {
  it('takes the first answer as the baseline', () => {
    expect(detectChanges(null, found())).toEqual([]);
    expect(detectChanges(null, notFound)).toEqual([]);
  });

  it('finds nothing when nothing changed', () => {
    expect(detectChanges(found(), found())).toEqual([]);
    expect(detectChanges(notFound, notFound)).toEqual([]);
  });

  it('reports a status change with both licences', () => {
    expect(detectChanges(found(), found({ status: 'Revoked' }))).toEqual([
      { type: 'licence.status_changed', previous: found().licence, current: found({ status: 'Revoked' }).licence },
    ]);
  });

  it.each<[keyof RegisterLicence, string]>([
    ['expiryDate', '2029-01-31'],
    ['licenceSector', 'Door Supervision'],
    ['role', 'Non Front Line'],
    ['surname', 'JONES'],
    ['additionalConditions', 'Supervised only'],
  ])('reports a change of %s as details_changed', (field, value) => {
    expect(detectChanges(found(), found({ [field]: value }))).toEqual([
      { type: 'licence.details_changed', previous: found().licence, current: found({ [field]: value }).licence },
    ]);
  });

  it('takes a new status reason as part of the status change', () => {
    expect(detectChanges(found(), found({ status: 'Revoked', statusReason: 'Conviction' })).map((change) => change.type)).toEqual([
      'licence.status_changed',
    ]);
  });

  it('reports both when the status and a detail change together', () => {
    expect(detectChanges(found(), found({ status: 'Expired', expiryDate: '2026-11-01' })).map((change) => change.type)).toEqual([
      'licence.status_changed',
      'licence.details_changed',
    ]);
  });

  it('reports a licence gone from the register as not_found', () => {
    expect(detectChanges(found(), notFound)).toEqual([{ type: 'licence.not_found', previous: found().licence, current: null }]);
  });

  it('reports a licence appearing as a status change from null', () => {
    expect(detectChanges(notFound, found())).toEqual([{ type: 'licence.status_changed', previous: null, current: found().licence }]);
  });

  it('concludes nothing from TOO_MANY_RESULTS either way', () => {
    expect(detectChanges(found(), tooMany)).toEqual([]);
    expect(detectChanges(tooMany, found({ status: 'Revoked' }))).toEqual([]);
  });
});
