import { ValidationError } from 'class-validator';
import { numberRows } from './numbered-rows';
import { UnknownFieldMessage } from './request-dto.decorators';
import { toValidationError, validationMessage } from './validation-exception.factory';

@UnknownFieldMessage('only a and b')
class Shape {}

class Bare {}

const error = (fields: Partial<ValidationError>): ValidationError => Object.assign(new ValidationError(), fields);

describe('validationMessage', () => {
  it('takes the text of the first failed constraint', () => {
    expect(
      validationMessage([error({ property: 'a', constraints: { matches: 'a is bad' } }), error({ property: 'b', constraints: { isInt: 'b is bad' } })]),
    ).toBe('a is bad');
  });

  it('answers an unknown field with the text its DTO declares, or the generic one', () => {
    const unknown = (target: object) => error({ property: 'x', target, constraints: { whitelistValidation: 'property x should not exist' } });
    expect([validationMessage([unknown(new Shape())]), validationMessage([unknown(new Bare())])]).toEqual(['only a and b', 'Invalid request']);
  });

  it('names the row of a problem inside numbered rows, as the rows number themselves', () => {
    const rows = numberRows([{}, {}, {}], [2, 4, 5]);
    const inRow = (index: number, child: ValidationError) =>
      error({ property: 'items', children: [error({ property: String(index), target: rows, children: [child] })] });
    expect(validationMessage([inRow(2, error({ property: 'licenceNumber', constraints: { matches: 'licence number must be 16 digits' } }))])).toBe(
      'Row 5: licence number must be 16 digits',
    );
    expect(
      validationMessage([
        error({ property: 'items', children: [error({ property: '0', target: rows, constraints: { nestedValidation: 'not an item' } })] }),
      ]),
    ).toBe('Row 2: not an item');
  });

  it('adds no row to a problem inside a list that is not numbered', () => {
    const list = [{}];
    expect(validationMessage([error({ property: 'l', children: [error({ property: '0', target: list, constraints: { isInt: 'bad' } })] })])).toBe('bad');
  });

  it('falls back to the generic text when there is nothing to tell', () => {
    expect([validationMessage([]), validationMessage([error({ property: 'a', children: [] })])]).toEqual(['Invalid request', 'Invalid request']);
  });
});

describe('toValidationError', () => {
  it('is 400 VALIDATION_ERROR with that text', () => {
    expect(toValidationError([error({ property: 'a', constraints: { matches: 'a is bad' } })])).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      publicMessage: 'a is bad',
    });
  });
});
