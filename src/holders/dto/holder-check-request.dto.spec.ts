import { RequestValidationPipe } from '../../validation/request-validation.pipe';
import { NameSearchDto, VerifyHolderDto } from './holder-check-request.dto';

const pipe = new RequestValidationPipe();
const readHolder = (body: unknown) => pipe.transform(body, { type: 'body', metatype: VerifyHolderDto });
const readSearch = (body: unknown) => pipe.transform(body, { type: 'body', metatype: NameSearchDto });
const NUMBER = '1230112233445500';

describe('VerifyHolderDto', () => {
  it('takes a number, the names and an optional real date', async () => {
    await expect(readHolder({ licenceNumber: NUMBER, firstName: 'Anna-Marie', surname: "D'Arcy" })).resolves.toMatchObject({ surname: "D'Arcy" });
    await expect(readHolder({ licenceNumber: NUMBER, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' })).resolves.toMatchObject({
      dateOfBirth: '1990-04-12',
    });
  });

  it.each([
    ['no first name', { licenceNumber: NUMBER, surname: 'Hughes' }, 'firstName must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    ['a surname with digits', { licenceNumber: NUMBER, firstName: 'O', surname: 'H1' }, 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    [
      'a surname that is not text',
      { licenceNumber: NUMBER, firstName: 'O', surname: 7 },
      'surname must be 1 to 50 letters, spaces, hyphens or apostrophes',
    ],
    [
      'a date that is no day',
      { licenceNumber: NUMBER, firstName: 'O', surname: 'H', dateOfBirth: '1990-02-30' },
      'dateOfBirth must be a real date written YYYY-MM-DD',
    ],
    ['a bad number', { licenceNumber: '123', firstName: 'O', surname: 'H' }, 'Licence number must be 16 digits'],
    [
      'an unknown field',
      { licenceNumber: NUMBER, firstName: 'O', surname: 'H', middleName: 'J' },
      'Request body may only contain licenceNumber, firstName, surname and dateOfBirth',
    ],
  ])('refuses %s', async (_what, body, message) => {
    await expect(readHolder(body)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: message });
  });
});

describe('NameSearchDto', () => {
  it('takes a surname alone, or with every filter', async () => {
    await expect(readSearch({ surname: 'Hughes' })).resolves.toMatchObject({ surname: 'Hughes' });
    await expect(
      readSearch({
        surname: 'Hughes',
        firstName: 'Olivia',
        middleName: 'J',
        dateOfBirth: '1990-04-12',
        role: 'Front Line',
        licenceSector: 'Public Space Surveillance (CCTV)',
      }),
    ).resolves.toMatchObject({ licenceSector: 'Public Space Surveillance (CCTV)' });
  });

  it.each([
    ['no surname', {}, 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    ['an empty surname', { surname: '' }, 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    ['a 51-letter surname', { surname: 'x'.repeat(51) }, 'surname must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    ['a role with a digit', { surname: 'Hughes', role: 'Front Line 2' }, 'role must be 1 to 50 letters, spaces, hyphens or apostrophes'],
    [
      'an unknown field',
      { surname: 'Hughes', licenceNumber: NUMBER },
      'Request body may only contain surname, firstName, middleName, dateOfBirth, role and licenceSector',
    ],
  ])('refuses %s', async (_what, body, message) => {
    await expect(readSearch(body)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: message });
  });
});
