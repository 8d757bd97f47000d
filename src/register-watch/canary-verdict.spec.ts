import type { RegisterLicence } from '@lvs/register';
import { CanaryAnswer, judgeCanary } from './canary-verdict';

const licence: RegisterLicence = {
  licenceNumber: '1011001544208079',
  firstName: 'ALEX',
  surname: 'SMITH',
  dateOfBirth: null,
  licenceType: null,
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2027-03-31',
  status: 'Active',
  statusReason: null,
  additionalConditions: 'old conditions',
};
const baseline: CanaryAnswer = {
  firstName: 'ALEX',
  surname: 'SMITH',
  dateOfBirth: null,
  licenceType: null,
  role: 'Front Line',
  licenceSector: 'Door Supervision',
  expiryDate: '2027-03-31',
  status: 'Active',
};
const found = (change: Partial<RegisterLicence>) =>
  ({ kind: 'answer', result: { status: 'FOUND', licence: { ...licence, ...change }, checkedAt: '2026-11-29T00:00:00.000Z' } }) as const;
const TODAY = '2026-11-29';

describe('judgeCanary', () => {
  it('takes the first answer as the baseline', () => {
    expect(judgeCanary(null, found({}), TODAY)).toEqual({ verdict: 'baseline', answer: baseline });
  });

  it('is good for the same answer, whatever the conditions and status reason say', () => {
    expect(judgeCanary(baseline, found({ additionalConditions: null, statusReason: 'x' }), TODAY)).toEqual({ verdict: 'good', answer: baseline });
  });

  it('is good for a later expiry, which becomes the new baseline', () => {
    expect(judgeCanary(baseline, found({ expiryDate: '2030-03-31' }), TODAY)).toEqual({
      verdict: 'good',
      answer: { ...baseline, expiryDate: '2030-03-31' },
    });
  });

  it('is good for Active to Expired on the expiry date or after, and for a renewal back to Active', () => {
    expect(judgeCanary(baseline, found({ status: 'Expired' }), '2027-03-31').verdict).toBe('good');
    const expired = { ...baseline, status: 'Expired' };
    expect(judgeCanary(expired, found({ expiryDate: '2030-03-31' }), '2027-04-02').verdict).toBe('good');
  });

  it.each([
    ['surname', { surname: 'SMYTHE' }, 'changed: surname'],
    ['names and role', { firstName: 'ALEXANDRA', role: 'Non Front Line' }, 'changed: firstName, role'],
    ['sector', { licenceSector: null }, 'changed: licenceSector'],
    ['date of birth', { dateOfBirth: '1990-01-01' }, 'changed: dateOfBirth'],
    ['licence type', { licenceType: 'Individual' }, 'changed: licenceType'],
    ['Expired before its date', { status: 'Expired' }, 'the status or expiry changed as a licence does not'],
    ['an earlier expiry', { expiryDate: '2026-12-31' }, 'the status or expiry changed as a licence does not'],
    ['a revocation', { status: 'Revoked' }, 'the status or expiry changed as a licence does not'],
    ['Active again without a renewal', {}, 'the status or expiry changed as a licence does not', 'Expired'],
  ])('fails on %s', (_name, change, reason, baselineStatus = 'Active') => {
    expect(judgeCanary({ ...baseline, status: baselineStatus }, found(change), TODAY)).toEqual({ verdict: 'failed', reason });
  });

  it('fails on a page it could not read, NOT_FOUND and TOO_MANY_RESULTS, even on the first look', () => {
    expect(judgeCanary(null, { kind: 'parse-error' }, TODAY)).toEqual({ verdict: 'failed', reason: 'the register page could not be read (PARSE_ERROR)' });
    for (const status of ['NOT_FOUND', 'TOO_MANY_RESULTS'] as const) {
      expect(judgeCanary(baseline, { kind: 'answer', result: { status, licence: null, checkedAt: TODAY } }, TODAY)).toEqual({
        verdict: 'failed',
        reason: `the register answered ${status}`,
      });
    }
  });

  it('learns nothing when the register did not answer', () => {
    expect(judgeCanary(baseline, { kind: 'no-answer' }, TODAY)).toEqual({ verdict: 'unknown' });
  });
});
