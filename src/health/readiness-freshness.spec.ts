import { isReadinessCheckFresh, READINESS_MAX_AGE_MS } from './readiness-freshness';

describe('isReadinessCheckFresh', () => {
  it('asks for a check when none has run yet', () => {
    expect(isReadinessCheckFresh(undefined, 5000)).toBe(false);
  });

  it('reuses a check up to 1 s after it started, and not a millisecond later', () => {
    expect(READINESS_MAX_AGE_MS).toBe(1000);
    expect(isReadinessCheckFresh(5000, 5000)).toBe(true);
    expect(isReadinessCheckFresh(5000, 6000)).toBe(true);
    expect(isReadinessCheckFresh(5000, 6001)).toBe(false);
  });

  it('takes another bound when given one', () => {
    expect(isReadinessCheckFresh(5000, 5200, 100)).toBe(false);
    expect(isReadinessCheckFresh(5000, 5100, 100)).toBe(true);
  });
});
