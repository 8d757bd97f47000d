import { readsTooSlowly } from './export-pace';

describe('readsTooSlowly', () => {
  it('cuts a client that took less than the pace over the window', () => {
    expect(readsTooSlowly(0, 10_000, 8192)).toBe(true);
    expect(readsTooSlowly(81_919, 10_000, 8192)).toBe(true);
  });

  it('keeps a client that took the pace or more', () => {
    expect(readsTooSlowly(81_920, 10_000, 8192)).toBe(false);
    expect(readsTooSlowly(5_000_000, 10_000, 8192)).toBe(false);
  });
});
