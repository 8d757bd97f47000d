import { distinctNumbers, RosterEntry, rosterEntries } from './roster';

const A = '1011001544208079';
const B = '1888000000000000';
const row = (licenceNumber: string, reference: string | null, holder: RosterEntry['holder'] = null): RosterEntry => ({ licenceNumber, reference, holder });

describe('rosterEntries', () => {
  it('takes the rows of either shape, an empty or missing reference as none', () => {
    const items = [
      { licenceNumber: A, reference: 'g-1' },
      { licenceNumber: B },
      { licenceNumber: A, reference: '' },
      { licenceNumber: B, reference: null },
    ];
    const expected = [row(A, 'g-1'), row(B, null), row(A, null), row(B, null)];
    expect([rosterEntries({ items }), rosterEntries({ licenceNumbers: items })]).toEqual([expected, expected]);
  });

  it('takes the holder of a row that names one, with its date of birth when given', () => {
    const items = [
      { licenceNumber: A, firstName: 'Jane', surname: 'Doe' },
      { licenceNumber: B, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' },
    ];
    expect(rosterEntries({ items })).toEqual([
      row(A, null, { firstName: 'Jane', surname: 'Doe' }),
      row(B, null, { firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' }),
    ]);
  });
});

describe('distinctNumbers', () => {
  it('gives each number once, sorted', () => {
    expect(distinctNumbers([row(B, null), row(A, 'x'), row(B, 'y')])).toEqual([A, B]);
  });
});
