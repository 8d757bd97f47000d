import { nameSearchText, normaliseNameSearch, searchedPersonText, searchQuotaUnit } from './name-search-query';

describe('normaliseNameSearch', () => {
  it('trims, collapses white space and upper-cases every field, keeping apostrophes and hyphens', () => {
    expect(normaliseNameSearch({ surname: "  o'brien ", firstName: 'mary   anne', middleName: 'Jo-Ann', role: 'front line' })).toEqual({
      surname: "O'BRIEN",
      firstName: 'MARY ANNE',
      middleName: 'JO-ANN',
      role: 'FRONT LINE',
    });
  });

  it('drops fields that are absent or blank, and keeps the date as given', () => {
    expect(normaliseNameSearch({ surname: 'Hughes', firstName: ' ', dateOfBirth: '1990-04-12' })).toEqual({
      surname: 'HUGHES',
      dateOfBirth: '1990-04-12',
    });
  });
});

describe('nameSearchText', () => {
  it('is the same for the same search written differently, once normalised', () => {
    const one = normaliseNameSearch({ surname: 'hughes', firstName: 'Olivia' });
    const other = normaliseNameSearch({ firstName: ' OLIVIA', surname: 'Hughes  ' });
    expect(nameSearchText(one)).toBe(nameSearchText(other));
  });

  it('tells a field apart from another holding the same text', () => {
    expect(nameSearchText({ surname: 'HUGHES', firstName: 'ANN' })).not.toBe(nameSearchText({ surname: 'HUGHES', middleName: 'ANN' }));
  });
});

describe('searchedPersonText', () => {
  it('names the person by surname and first name only, normalised: other filters and the date are no new person', () => {
    const person = searchedPersonText({ surname: ' hughes ', firstName: 'olivia' });
    expect(searchedPersonText({ surname: 'HUGHES', firstName: 'Olivia', middleName: 'Jane', dateOfBirth: '1990-04-12', role: 'Front Line' })).toBe(person);
    expect(person).toBe('["HUGHES","OLIVIA"]');
  });

  it('tells a surname alone from the same surname with a first name', () => {
    expect(searchedPersonText({ surname: 'Hughes' })).toBe('["HUGHES",null]');
  });
});

describe('searchQuotaUnit', () => {
  it('is N and the first 15 hex digits: 16 characters that are never a licence number', () => {
    const unit = searchQuotaUnit('0123456789abcdef'.repeat(4));
    expect(unit).toBe('N0123456789abcde');
    expect(unit).toHaveLength(16);
    expect(unit).not.toMatch(/^\d{16}$/);
  });
});
