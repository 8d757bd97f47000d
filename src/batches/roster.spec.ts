import { distinctNumbers, rosterEntries, rosterHash } from './roster';

const A = '1011001544208079';
const B = '1888000000000000';

describe('rosterEntries', () => {
  it('takes the rows of either shape, an empty or missing reference as none', () => {
    const items = [{ licenceNumber: A, reference: 'g-1' }, { licenceNumber: B }, { licenceNumber: A, reference: '' }, { licenceNumber: B, reference: null }];
    const expected = [
      { licenceNumber: A, reference: 'g-1' },
      { licenceNumber: B, reference: null },
      { licenceNumber: A, reference: null },
      { licenceNumber: B, reference: null },
    ];
    expect([rosterEntries({ items }), rosterEntries({ licenceNumbers: items })]).toEqual([expected, expected]);
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
