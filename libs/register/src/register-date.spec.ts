import { parseRegisterDate } from './register-date';

describe('parseRegisterDate', () => {
  it.each([
    ['06 June 2027', '2027-06-06'],
    ['6 June 2027', '2027-06-06'],
    ['14 February 2024', '2024-02-14'],
    ['29 February 2028', '2028-02-29'],
    ['29 February 2000', '2000-02-29'],
    ['31 December 2030', '2030-12-31'],
    ['01 january 2026', '2026-01-01'],
  ])('reads %j as %s', (text, expected) => {
    expect(parseRegisterDate(text)).toBe(expected);
  });

  it.each([
    '31 February 2027',
    '29 February 2027',
    '29 February 1900',
    '31 April 2027',
    '00 June 2027',
    '32 January 2027',
    '06 Jun 2027',
    '06 Juin 2027',
    'June 6 2027',
    '2027-06-06',
    '06/06/2027',
    '06 June 27',
    '06 June 2027 extra',
    '',
  ])('rejects %j', (text) => {
    expect(parseRegisterDate(text)).toBeNull();
  });
});
