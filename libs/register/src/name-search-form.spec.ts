import { nameSearchForm } from './name-search-form';

describe('nameSearchForm', () => {
  it('sends all six fields, empty when unused, with the surname trimmed', () => {
    expect([...nameSearchForm({ surname: '  DOE ' })]).toEqual([
      ['Surname', 'DOE'],
      ['FirstName', ''],
      ['MiddleName', ''],
      ['DateOfBirth', ''],
      ['Role', ''],
      ['LicenseSector', ''],
    ]);
  });

  it('sends every filter given, and the date of birth as DD/MM/YYYY', () => {
    const form = nameSearchForm({
      surname: "O'BRIEN",
      firstName: 'MARY ANNE',
      middleName: 'ROSE',
      dateOfBirth: '1975-03-02',
      role: 'Non Front Line',
      licenceSector: 'Door Supervision',
    });
    expect(Object.fromEntries(form)).toEqual({
      Surname: "O'BRIEN",
      FirstName: 'MARY ANNE',
      MiddleName: 'ROSE',
      DateOfBirth: '02/03/1975',
      Role: 'Non Front Line',
      LicenseSector: 'Door Supervision',
    });
    expect(form.toString()).toBe(
      'Surname=O%27BRIEN&FirstName=MARY+ANNE&MiddleName=ROSE&DateOfBirth=02%2F03%2F1975&Role=Non+Front+Line&LicenseSector=Door+Supervision',
    );
  });

  it.each(['', '   '])('refuses the blank surname %j', (surname) => {
    expect(() => nameSearchForm({ surname })).toThrow(new TypeError('A name search needs a surname'));
  });

  it.each(['02/03/1975', '1975-3-2', '1975-02-30', '1975-13-01', '19750302', ''])('refuses the date of birth %j', (dateOfBirth) => {
    expect(() => nameSearchForm({ surname: 'DOE', dateOfBirth })).toThrow(new TypeError('A name search date of birth must be a YYYY-MM-DD date'));
  });

  it('accepts 29 February in a leap year', () => {
    expect(nameSearchForm({ surname: 'DOE', dateOfBirth: '2000-02-29' }).get('DateOfBirth')).toBe('29/02/2000');
  });
});
