import { loadSandboxData } from './sandbox-data';
import type { SandboxLicence } from './sandbox-data';
import { searchSandboxByName } from './sandbox-name-search';
import { SANDBOX_NUMBERS } from './sandbox-numbers';

describe('searchSandboxByName over the shipped data set', () => {
  let licences: SandboxLicence[];
  let tooManySurnames: ReadonlySet<string>;
  const numbersFound = (fields: Record<string, string>): string[] | 'too_many_results' => {
    const answer = searchSandboxByName(new URLSearchParams(fields), licences, tooManySurnames);
    return answer.kind === 'licences' ? answer.licences.map(({ licenceNumber }) => licenceNumber) : answer.kind;
  };

  beforeAll(async () => {
    const data = await loadSandboxData();
    licences = [...data.licencesByNumber.values()].flat();
    tooManySurnames = data.tooManySurnames;
  });

  it('finds every licence of a holder with two, the old one first', () => {
    expect(numbersFound({ Surname: 'HUGHES' })).toEqual([SANDBOX_NUMBERS.renewedOld, SANDBOX_NUMBERS.renewedNew]);
    expect(numbersFound({ Surname: 'EVANS', FirstName: 'DANIEL' })).toEqual([SANDBOX_NUMBERS.replacedOld, SANDBOX_NUMBERS.replacedNew]);
  });

  it('ignores case and extra white space, and empty filters', () => {
    expect(numbersFound({ Surname: ' hughes ', FirstName: 'Olivia', MiddleName: '', DateOfBirth: '', Role: 'front  line', LicenseSector: '' })).toEqual([
      SANDBOX_NUMBERS.renewedOld,
      SANDBOX_NUMBERS.renewedNew,
    ]);
  });

  it.each(['12/04/1990', '1990-04-12'])('confirms the date of birth %s, written either way', (DateOfBirth) => {
    expect(numbersFound({ Surname: 'HUGHES', FirstName: 'OLIVIA', DateOfBirth })).toEqual([SANDBOX_NUMBERS.renewedOld, SANDBOX_NUMBERS.renewedNew]);
  });

  it.each(['13/04/1990', '04/12/1990', '31/02/1990', '1990-4-12', 'yesterday'])('finds nothing with the date of birth %s', (DateOfBirth) => {
    expect(numbersFound({ Surname: 'HUGHES', DateOfBirth })).toEqual([]);
  });

  it("confirms JANE DOE's and MARY ANNE O'BRIEN's dates of birth", () => {
    expect(numbersFound({ Surname: 'DOE', FirstName: 'JANE', DateOfBirth: '15/07/1988' })).toEqual([SANDBOX_NUMBERS.active]);
    expect(numbersFound({ Surname: "O'BRIEN", FirstName: 'MARY ANNE', DateOfBirth: '02/03/1975' })).toEqual([SANDBOX_NUMBERS.expired]);
  });

  it('never confirms a date for a holder whose date of birth it does not know', () => {
    expect(numbersFound({ Surname: 'BELL' })).toEqual([SANDBOX_NUMBERS.nonFrontLine]);
    expect(numbersFound({ Surname: 'BELL', DateOfBirth: '01/01/1980' })).toEqual([]);
  });

  it('narrows by first name, middle name, role and sector', () => {
    expect(numbersFound({ Surname: 'EVANS', MiddleName: 'ROBERT' })).toEqual([SANDBOX_NUMBERS.replacedOld, SANDBOX_NUMBERS.replacedNew]);
    expect(numbersFound({ Surname: 'EVANS', MiddleName: 'JAMES' })).toEqual([]);
    expect(numbersFound({ Surname: 'HUGHES', FirstName: 'OLIVER' })).toEqual([]);
    expect(numbersFound({ Surname: 'HUGHES', Role: 'Non Front Line' })).toEqual([]);
    expect(numbersFound({ Surname: "O'BRIEN", Role: 'Non Front Line' })).toEqual([SANDBOX_NUMBERS.expired]);
    expect(numbersFound({ Surname: 'HUGHES', LicenseSector: 'Key Holding' })).toEqual([]);
  });

  it('answers too many results for the common surname, whatever the filters', () => {
    expect(numbersFound({ Surname: 'SMITH' })).toBe('too_many_results');
    expect(numbersFound({ Surname: 'smith', FirstName: 'WILLIAM', DateOfBirth: '20/01/1979' })).toBe('too_many_results');
  });

  it('finds nothing for an unknown or blank surname', () => {
    expect(numbersFound({ Surname: 'NOBODY' })).toEqual([]);
    expect(numbersFound({ Surname: '  ' })).toEqual([]);
    expect(numbersFound({})).toEqual([]);
  });
});
