import { maskLicenceNumber } from './mask-licence-number';

describe('maskLicenceNumber', () => {
  it('masks a 16-digit licence number as 12 stars and the last 4 digits', () => {
    expect(maskLicenceNumber('1234567890123456')).toBe('************3456');
  });

  it('keeps the length of a 16-digit number', () => {
    expect(maskLicenceNumber('0000111122223333').length).toBe(16);
  });

  it('never shows the first 12 digits', () => {
    expect(maskLicenceNumber('9876543210987654').includes('987654321098')).toBe(false);
  });

  it('masks a 17-character input as 13 stars and the last 4', () => {
    expect(maskLicenceNumber('12345678901234567')).toBe('*************4567');
  });

  it('masks a 5-character input as 1 star and the last 4', () => {
    expect(maskLicenceNumber('12345')).toBe('*2345');
  });

  it('hides a 4-character input entirely', () => {
    expect(maskLicenceNumber('1234')).toBe('****');
  });

  it('hides a 1-character input entirely, as 4 stars', () => {
    expect(maskLicenceNumber('7')).toBe('****');
  });

  it('turns the empty string into 4 stars', () => {
    expect(maskLicenceNumber('')).toBe('****');
  });

  it('masks non-digit input the same way', () => {
    expect(maskLicenceNumber('abcdefgh')).toBe('****efgh');
  });
});
