import shippedData from '../../libs/test-register/data/licences.json';

/** The bench's register holds many copies of the sandbox's first licence (JANE DOE), under other numbers. */
export const BENCH_LICENCE = shippedData.licences[0];

/** What a cached verification of such a number answers, for the bare baseline to answer too. */
export const BARE_VERIFY_BODY = {
  status: 'FOUND',
  message: 'Licence found',
  licence: { ...BENCH_LICENCE, dateOfBirth: null, licenceType: null },
  checkedAt: '2026-11-22T09:00:00.000Z',
  verificationId: '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11',
};

export const BARE_QUOTA_BODY = { period: '2026-11', used: 1000, quota: null, remaining: null };
