import { recentPeriods } from './billing-period';

describe('recentPeriods', () => {
  it('is the last period alone for a count of 1', () => {
    expect(recentPeriods('2026-11', 1)).toEqual(['2026-11']);
  });

  it('lists the months oldest first within one year', () => {
    expect(recentPeriods('2026-11', 3)).toEqual(['2026-09', '2026-10', '2026-11']);
  });

  it('crosses into the previous year', () => {
    expect(recentPeriods('2026-02', 3)).toEqual(['2025-12', '2026-01', '2026-02']);
  });

  it('covers two whole years for 24 and ends with the last period', () => {
    const periods = recentPeriods('2026-01', 24);
    expect(periods).toHaveLength(24);
    expect(periods[0]).toBe('2024-02');
    expect(periods[23]).toBe('2026-01');
    expect(new Set(periods).size).toBe(24);
  });

  it('zero-pads every month', () => {
    expect(recentPeriods('2026-12', 12).every((period) => /^\d{4}-(0[1-9]|1[0-2])$/.test(period))).toBe(true);
  });
});
