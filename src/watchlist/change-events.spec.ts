import type { RegisterLicence } from '@lvs/register';
import { changeEvents } from './change-events';

const licence = { licenceNumber: '1234567890123456', status: 'Active' } as RegisterLicence;
const revoked = { ...licence, status: 'Revoked' };

describe('changeEvents', () => {
  it('makes one event per change for the watcher, with its reference', () => {
    expect(
      changeEvents('1234567890123456', { userId: 'u1', reference: 'R-1' }, [
        { type: 'licence.status_changed', previous: licence, current: revoked },
        { type: 'licence.not_found', previous: revoked, current: null },
      ]),
    ).toEqual([
      {
        userId: 'u1',
        type: 'licence.status_changed',
        data: { licenceNumber: '1234567890123456', reference: 'R-1', previous: licence, current: revoked },
      },
      { userId: 'u1', type: 'licence.not_found', data: { licenceNumber: '1234567890123456', reference: 'R-1', previous: revoked, current: null } },
    ]);
  });

  it('makes none without a change', () => {
    expect(changeEvents('1234567890123456', { userId: 'u1', reference: null }, [])).toEqual([]);
  });
});
