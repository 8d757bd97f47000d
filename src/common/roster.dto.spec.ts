import { ApiError } from '../errors/api-error';
import { RequestValidationPipe } from '../validation/request-validation.pipe';
import { RosterDto } from './roster.dto';

const A = '1011001544208079';
const B = '1888000000000000';
const SHAPE = 'Request body must have either items or licenceNumbers, as an array';
const SIZE = 'A batch must have 1 to 1000 items';
const NOT_AN_ITEM = 'item must be an object with licenceNumber and an optional reference';

const pipe = new RequestValidationPipe();
const read = (body: unknown) => pipe.transform(body, { type: 'body', metatype: RosterDto }) as Promise<RosterDto>;

/** The fixed text a body is refused with. */
async function problemOf(body: unknown): Promise<string> {
  const error = await read(body).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  expect(error.code).toBe('VALIDATION_ERROR');
  return error.publicMessage;
}

describe('RosterDto', () => {
  it('reads items with and without references', async () => {
    const roster = await read({ items: [{ licenceNumber: A, reference: 'g-1' }, { licenceNumber: B }, { licenceNumber: A, reference: null }] });
    expect(roster).toBeInstanceOf(RosterDto);
    expect(roster.items).toEqual([{ licenceNumber: A, reference: 'g-1' }, { licenceNumber: B }, { licenceNumber: A, reference: null }]);
  });

  it('reads a plain list of numbers as rows', async () => {
    expect((await read({ licenceNumbers: [A, B] })).licenceNumbers).toEqual([{ licenceNumber: A }, { licenceNumber: B }]);
  });

  it.each([
    ['15 digits', '101100154420807'],
    ['17 digits', '10110015442080790'],
    ['letters', '10110015442080AB'],
    ['a number', 1011001544208079],
    ['spaces', ' 1011001544208079'],
    ['an object', { licenceNumber: A }],
  ])('names the first row whose number has %s, counting from 1', async (_what, number) => {
    expect(await problemOf({ licenceNumbers: [A, B, number, 'x'] })).toBe('Row 3: licence number must be 16 digits');
    expect(await problemOf({ items: [{ licenceNumber: A }, { licenceNumber: number }] })).toBe('Row 2: licence number must be 16 digits');
  });

  it('takes a reference of 100 characters and refuses 101 or one that is not text', async () => {
    await expect(read({ items: [{ licenceNumber: A, reference: 'r'.repeat(100) }] })).resolves.toBeInstanceOf(RosterDto);
    expect(await problemOf({ items: [{ licenceNumber: A }, { licenceNumber: B, reference: 'r'.repeat(101) }] })).toBe(
      'Row 2: reference must be text of at most 100 characters',
    );
    expect(await problemOf({ items: [{ licenceNumber: A, reference: 42 }] })).toBe('Row 1: reference must be text of at most 100 characters');
  });

  it.each([
    ['a string', 'x'],
    ['null', null],
    ['a list', [A]],
  ])('names a row that is %s rather than an item object', async (_what, row) => {
    expect(await problemOf({ items: [{ licenceNumber: A }, row] })).toBe(`Row 2: ${NOT_AN_ITEM}`);
  });

  it('names a row with an unknown field, before its number', async () => {
    expect(await problemOf({ items: [{ licenceNumber: A }, { licenceNumber: '123', extra: 1 }] })).toBe(`Row 2: ${NOT_AN_ITEM}`);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('drops %s inside a row, as Nest does, and judges the row on its fields', async (field) => {
    const roster = await read(JSON.parse(`{"items":[{"licenceNumber":"${A}","${field}":{"polluted":true}}]}`));
    expect(roster.items).toEqual([{ licenceNumber: A }]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('takes 1,000 rows and refuses 0 or 1,001', async () => {
    await expect(read({ licenceNumbers: Array(1000).fill(A) })).resolves.toBeInstanceOf(RosterDto);
    expect(await problemOf({ licenceNumbers: [] })).toBe(SIZE);
    expect(await problemOf({ items: Array(1001).fill({ licenceNumber: A }) })).toBe(SIZE);
  });

  it.each([
    ['both keys', { items: [], licenceNumbers: [] }],
    ['both keys, the numbers bad', { items: [{ licenceNumber: A }], licenceNumbers: ['1'] }],
    ['an unknown key', { numbers: [A] }],
    ['an unknown key beside items', { items: [{ licenceNumber: 'x' }], note: 1 }],
    ['items that are not a list', { items: A }],
    ['numbers that are null', { licenceNumbers: null }],
    ['an empty object', {}],
    ['a prototype key', JSON.parse(`{"licenceNumbers":["${A}"],"__proto__":{}}`)],
  ])('refuses a body with %s', async (_what, body) => {
    expect(await problemOf(body)).toBe(SHAPE);
  });
});

describe('RosterDto rows that name a holder', () => {
  const HOLDER = 'firstName and surname must come together, each 1 to 50 letters, spaces, hyphens or apostrophes';
  const DATE = 'dateOfBirth must be a real date written YYYY-MM-DD, with firstName and surname';

  it('reads rows that name a holder, with or without a date of birth, beside rows that do not', async () => {
    const items = [
      { licenceNumber: A, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' },
      { licenceNumber: B, firstName: 'J', surname: 'Doe' },
      { licenceNumber: A },
    ];
    expect((await read({ items })).items).toEqual(items);
  });

  it.each([
    ['a first name alone', { licenceNumber: A, firstName: 'Olivia' }, HOLDER],
    ['a surname alone', { licenceNumber: A, surname: 'Hughes' }, HOLDER],
    ['a name with digits', { licenceNumber: A, firstName: 'Olivia2', surname: 'Hughes' }, HOLDER],
    ['a date without names', { licenceNumber: A, dateOfBirth: '1990-04-12' }, DATE],
    ['a date that is no day', { licenceNumber: A, firstName: 'O', surname: 'H', dateOfBirth: '1990-02-30' }, DATE],
  ])('refuses %s, naming the row', async (_what, item, message) => {
    expect(await problemOf({ items: [{ licenceNumber: B }, item] })).toBe(`Row 2: ${message}`);
  });
});
