import { hasUndeclaredFields } from './undeclared-fields';

const declared = new Set(['licenceNumber']);

describe('hasUndeclaredFields', () => {
  it('is false for a body with only declared fields', () => {
    expect(hasUndeclaredFields({ licenceNumber: '1' }, declared)).toBe(false);
  });

  it('is false for an empty body (a missing field is the validator\'s business)', () => {
    expect(hasUndeclaredFields({}, declared)).toBe(false);
  });

  it('is true for an ordinary extra field', () => {
    expect(hasUndeclaredFields({ licenceNumber: '1', extra: true }, declared)).toBe(true);
  });

  it.each(['constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf', '__defineGetter__'])(
    'is true for the prototype name %s beside a declared field',
    (name) => {
      expect(hasUndeclaredFields(JSON.parse(`{"licenceNumber":"1","${name}":"x"}`), declared)).toBe(true);
    },
  );

  it('is true for a __proto__ own key, as JSON.parse makes it', () => {
    expect(hasUndeclaredFields(JSON.parse('{"licenceNumber":"1","__proto__":{"x":1}}'), declared)).toBe(true);
  });

  it('is false when no field is declared and the body is empty, true for any key', () => {
    expect(hasUndeclaredFields({}, new Set())).toBe(false);
    expect(hasUndeclaredFields({ a: 1 }, new Set())).toBe(true);
  });
});
