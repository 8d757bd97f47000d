import { checkRow, distinctNumbers, readRosterJson, rosterHash } from './roster';

const A = '1011001544208079';
const B = '1888000000000000';

describe('checkRow', () => {
  it('accepts 16 digits with no reference, a null one or one of 100 characters', () => {
    expect([checkRow(A, undefined), checkRow(A, null), checkRow(A, 'r'.repeat(100))]).toEqual([null, null, null]);
  });

  it.each([['15 digits', '101100154420807'], ['17 digits', '10110015442080790'], ['letters', '10110015442080AB'], ['a number', 1011001544208079], ['spaces', ' 1011001544208079']])(
    'refuses a licence number with %s',
    (_what, number) => {
      expect(checkRow(number, null)).toBe('licenceNumber');
    },
  );

  it('refuses a reference of 101 characters or one that is not text', () => {
    expect([checkRow(A, 'r'.repeat(101)), checkRow(A, 42)]).toEqual(['reference', 'reference']);
  });
});

describe('readRosterJson', () => {
  it('reads items with and without references, an empty reference as none', () => {
    expect(readRosterJson({ items: [{ licenceNumber: A, reference: 'g-1' }, { licenceNumber: B }, { licenceNumber: A, reference: '' }] })).toEqual({
      entries: [
        { licenceNumber: A, reference: 'g-1' },
        { licenceNumber: B, reference: null },
        { licenceNumber: A, reference: null },
      ],
    });
  });

  it('reads a plain list of numbers', () => {
    expect(readRosterJson({ licenceNumbers: [A, B] })).toEqual({
      entries: [
        { licenceNumber: A, reference: null },
        { licenceNumber: B, reference: null },
      ],
    });
  });

  it('names the first bad row, counting from 1', () => {
    expect(readRosterJson({ licenceNumbers: [A, B, '123', 'x'] })).toEqual({ problem: 'Row 3: licence number must be 16 digits' });
  });

  it('names a row that is not an item object, or has unknown fields', () => {
    expect(readRosterJson({ items: [{ licenceNumber: A }, 'x'] })).toEqual({
      problem: 'Row 2: item must be an object with licenceNumber and an optional reference',
    });
    expect(readRosterJson({ items: [{ licenceNumber: A, extra: 1 }] })).toEqual({
      problem: 'Row 1: item must be an object with licenceNumber and an optional reference',
    });
  });

  it('takes 1,000 rows and refuses 0 or 1,001', () => {
    expect('entries' in readRosterJson({ licenceNumbers: Array(1000).fill(A) })).toBe(true);
    expect(readRosterJson({ licenceNumbers: [] })).toEqual({ problem: 'A batch must have 1 to 1000 items' });
    expect(readRosterJson({ licenceNumbers: Array(1001).fill(A) })).toEqual({ problem: 'A batch must have 1 to 1000 items' });
  });

  it.each([
    ['both keys', { items: [], licenceNumbers: [] }],
    ['an unknown key', { numbers: [A] }],
    ['items that are not a list', { items: A }],
    ['an empty object', {}],
  ])('refuses a body with %s', (_what, body) => {
    expect(readRosterJson(body)).toEqual({ problem: 'Request body must have either items or licenceNumbers, as an array' });
  });
});

describe('distinctNumbers', () => {
  it('gives each number once, sorted', () => {
    expect(distinctNumbers([{ licenceNumber: B, reference: null }, { licenceNumber: A, reference: 'x' }, { licenceNumber: B, reference: 'y' }])).toEqual([A, B]);
  });
});

describe('rosterHash', () => {
  it('is the same for the same rows and differs when a reference or the order differs', () => {
    const rows = [{ licenceNumber: A, reference: 'x' }, { licenceNumber: B, reference: null }];
    expect(rosterHash(rows)).toBe(rosterHash(rows.map((row) => ({ ...row }))));
    expect(rosterHash(rows)).not.toBe(rosterHash([rows[0], { licenceNumber: B, reference: 'y' }]));
    expect(rosterHash(rows)).not.toBe(rosterHash([rows[1], rows[0]]));
    expect(rosterHash(rows)).toMatch(/^[0-9a-f]{64}$/);
  });
});
