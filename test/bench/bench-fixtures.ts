/** What the bench's register knows and what the bare baseline answers: the same shapes as the service's. */

export const BENCH_LICENCE = {
  firstName: 'JANE',
  surname: 'DOE',
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2027-06-06',
  status: 'Active',
  statusReason: null,
  additionalConditions: null,
};

export const BARE_VERIFY_BODY = {
  status: 'FOUND',
  message: 'Licence found',
  licence: { licenceNumber: '1500000000000000', ...BENCH_LICENCE, dateOfBirth: null, licenceType: null },
  checkedAt: '2026-11-22T09:00:00.000Z',
};

export const BARE_QUOTA_BODY = { period: '2026-11', used: 1000, quota: null, remaining: null };
