import { CsvText } from '../http/decode-request-body';
import { RosterDto } from '../common/roster.dto';
import { RequestValidationPipe } from '../validation/request-validation.pipe';
import { readRosterCsv } from './roster-csv';

const A = '1011001544208079';
const B = '1888000000000000';
const SIZE = 'A batch must have 1 to 1000 items';
const HOLDER = 'firstName and surname must come together, each 1 to 50 letters, spaces, hyphens or apostrophes';

const pipe = new RequestValidationPipe();
const readCsv = (text: string) => pipe.transform(new CsvText(text, readRosterCsv), { type: 'body', metatype: RosterDto }) as Promise<RosterDto>;

describe('RosterDto from CSV', () => {
  it('reads the same rows as JSON', async () => {
    expect((await readCsv(`licenceNumber,reference\r\n${A},g-1\r\n${B},\r\n`)).items).toEqual([
      { licenceNumber: A, reference: 'g-1' },
      { licenceNumber: B, reference: '' },
    ]);
  });

  it('names rows as a spreadsheet does, the header being row 1 and blank lines counted', async () => {
    const error = await readCsv(`licenceNumber\n${A}\n\n${B}\n123\n`).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', publicMessage: 'Row 5: licence number must be 16 digits' });
  });

  it('refuses a header alone as an empty batch, and a bad header or record with their own texts', async () => {
    await expect(readCsv('licenceNumber\r\n')).rejects.toMatchObject({ publicMessage: SIZE });
    await expect(readCsv(`number\r\n${A}\r\n`)).rejects.toMatchObject({
      publicMessage: 'CSV header must have a licenceNumber, licence_number or Licence number column',
    });
    await expect(readCsv(`licenceNumber,reference\n${A},"open\n`)).rejects.toMatchObject({
      publicMessage: 'Row 2: CSV could not be read (check quotes and separators)',
    });
  });

  it('names the CSV row of a holder with a first name only', async () => {
    await expect(readCsv(`licenceNumber,firstName,surname\n${A},Olivia,Hughes\n${B},Jane,\n`)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      publicMessage: `Row 3: ${HOLDER}`,
    });
  });
});
