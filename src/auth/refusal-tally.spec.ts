import { isCountedRefusal, refusalDays, refusalRow } from './refusal-tally';

describe('refusals counted per partner', () => {
  it('counts the quota, rate limit, live bound and watch cap, and no other answer', () => {
    expect(['QUOTA_EXCEEDED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'WATCHLIST_FULL'].map((code) => isCountedRefusal(code))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isCountedRefusal('VALIDATION_ERROR')).toBe(false);
    expect(isCountedRefusal('TOO_MANY_SIGN_INS')).toBe(false);
  });

  it('names the last days in UTC, oldest first, across a month end', () => {
    expect(refusalDays(new Date('2026-12-02T23:59:59Z'), 4)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(refusalDays(new Date('2026-12-02T00:00:00Z'), 1)).toEqual(['2026-12-02']);
  });

  it('reads a day with some codes never counted as zeros', () => {
    expect(refusalRow('2026-12-01', ['3', null, null, '12'])).toEqual({
      day: '2026-12-01',
      QUOTA_EXCEEDED: 3,
      RATE_LIMITED: 0,
      SERVICE_UNAVAILABLE: 0,
      WATCHLIST_FULL: 12,
    });
  });
});
