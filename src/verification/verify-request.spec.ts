import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { isLicenceNumber, readVerifyBody } from './verify-request';

describe('readVerifyBody', () => {
  it('reads a 16-digit licence number', () => {
    expect(readVerifyBody({ licenceNumber: '1011001544208079' })).toEqual({ licenceNumber: '1011001544208079' });
  });

  it.each([
    ['missing', {}],
    ['a number, not a string', { licenceNumber: 1011001544208079 }],
    ['15 digits', { licenceNumber: '101100154420807' }],
    ['17 digits', { licenceNumber: '10110015442080790' }],
    ['spaced', { licenceNumber: '1011 0015 4420 8079' }],
    ['with a trailing newline', { licenceNumber: '1011001544208079\n' }],
    ['non-ASCII digits', { licenceNumber: '١٠١١٠٠١٥٤٤٢٠٨٠٧٩' }],
    ['null', { licenceNumber: null }],
    ['an array', { licenceNumber: ['1011001544208079'] }],
  ])('refuses a licence number that is %s', (_case, body) => {
    expect(readVerifyBody(body)).toEqual({ problem: VALIDATION_MESSAGES.licenceNumber });
  });

  it('refuses a field beside the number, before looking at the number', () => {
    expect(readVerifyBody({ licenceNumber: '1011001544208079', extra: true })).toEqual({ problem: VALIDATION_MESSAGES.unknownField });
    expect(readVerifyBody({ licenceNumber: 'bad', extra: true })).toEqual({ problem: VALIDATION_MESSAGES.unknownField });
  });

  it.each(['constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__'])(
    'refuses the prototype name %s as a field',
    (name) => {
      expect(readVerifyBody(JSON.parse(`{"licenceNumber":"1011001544208079","${name}":"x"}`))).toEqual({
        problem: VALIDATION_MESSAGES.unknownField,
      });
    },
  );

  it('refuses a __proto__ own key, as JSON.parse makes it', () => {
    expect(readVerifyBody(JSON.parse('{"licenceNumber":"1011001544208079","__proto__":{"x":1}}'))).toEqual({
      problem: VALIDATION_MESSAGES.unknownField,
    });
  });
});

describe('isLicenceNumber', () => {
  it('takes exactly 16 ASCII digits', () => {
    expect(isLicenceNumber('0000000000000000')).toBe(true);
    expect(isLicenceNumber('000000000000000a')).toBe(false);
    expect(isLicenceNumber(1011001544208079)).toBe(false);
  });
});
