import { HOLDER_NAME_PATTERN, isRealIsoDate, LICENCE_SECTOR_PATTERN } from './holder-fields.decorator';

describe('holder fields', () => {
  it.each(['O\u2019BRIEN', "O'Brien", 'Anna-Marie', 'José', 'Ní Bhriain', 'A', 'x'.repeat(50)])('takes the name %j', (name) => {
    expect(HOLDER_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(['', 'x'.repeat(51), 'J.', 'Smith1', 'Smith;', 'Smith\n', '<b>'])('refuses the name %j', (name) => {
    expect(HOLDER_NAME_PATTERN.test(name)).toBe(false);
  });

  it('takes brackets in a sector only', () => {
    expect(LICENCE_SECTOR_PATTERN.test('Public Space Surveillance (CCTV)')).toBe(true);
    expect(HOLDER_NAME_PATTERN.test('Public Space Surveillance (CCTV)')).toBe(false);
  });

  it.each([
    ['1990-04-12', true],
    ['2000-02-29', true],
    ['2001-02-29', false],
    ['2000-02-30', false],
    ['1990-4-12', false],
    ['12/04/1990', false],
    ['1990-04-12T00:00:00Z', false],
    [19900412, false],
    [null, false],
  ])('reads %j as a real date: %s', (value, real) => {
    expect(isRealIsoDate(value)).toBe(real);
  });
});
