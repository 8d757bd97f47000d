import { parse } from 'csv-parse/sync';
import { rowNumbersOf } from '../validation/numbered-rows';
import { RejectedBody } from '../http/decode-request-body';
import { detectSeparator, readRosterCsv, RESULT_COLUMNS, ResultRow, writeResultsCsv } from './roster-csv';

const A = '1011001544208079';
const B = '1888000000000000';

describe('detectSeparator', () => {
  it('takes ; when the header has more of them, else ,', () => {
    expect([detectSeparator('licenceNumber;reference\n1,2'), detectSeparator('licenceNumber,reference'), detectSeparator('licenceNumber')]).toEqual([
      ';',
      ',',
      ',',
    ]);
  });
});

describe('readRosterCsv', () => {
  const rejection = (reason: string) => new RejectedBody(reason);

  it('reads what Excel writes: BOM, CRLF, `;`, quoted fields with separators and quotes, blank trailing rows', () => {
    const text = `\uFEFFLicence number;Reference\r\n${A};"North Gate, 1"\r\n${B};"say ""hi""; ok"\r\n;\r\n\r\n`;
    expect(readRosterCsv(text)).toEqual({
      items: [
        { licenceNumber: A, reference: 'North Gate, 1' },
        { licenceNumber: B, reference: 'say "hi"; ok' },
      ],
    });
  });

  it.each(['licenceNumber', 'licence_number', 'Licence number', 'LICENCE_NUMBER'])('finds the number column headed %s', (header) => {
    expect(readRosterCsv(`ref,${header}\nx,${A}\n`)).toEqual({ items: [{ licenceNumber: A }] });
  });

  it('takes the reference column when there is one, and trims cells', () => {
    expect(readRosterCsv(`reference,licenceNumber\n g-1 , ${A} \n`)).toEqual({ items: [{ licenceNumber: A, reference: 'g-1' }] });
  });

  it('takes the holder columns, in any spelling, leaving out empty cells', () => {
    const text = `Licence number,First name,SURNAME,date_of_birth\n${A},Olivia,Hughes,1990-04-12\n${B},,,\n${A},Jane,,\n`;
    expect(readRosterCsv(text)).toEqual({
      items: [
        { licenceNumber: A, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' },
        { licenceNumber: B },
        { licenceNumber: A, firstName: 'Jane' },
      ],
    });
  });

  it('numbers rows as a spreadsheet does, the header being row 1 and blank lines counted', () => {
    const roster = readRosterCsv(`licenceNumber\n${A}\n\n${B}\n123\n`) as { items: unknown[] };
    expect(roster.items).toEqual([{ licenceNumber: A }, { licenceNumber: B }, { licenceNumber: '123' }]);
    expect(rowNumbersOf(roster.items)).toEqual([2, 4, 5]);
  });

  it('refuses a header without a number column, or an empty file', () => {
    const noColumn = rejection('CSV header must have a licenceNumber, licence_number or Licence number column');
    expect([readRosterCsv(`number,reference\n${A},x\n`), readRosterCsv('')]).toEqual([noColumn, noColumn]);
  });

  it('reads a header alone as no rows (the DTO refuses an empty batch)', () => {
    expect(readRosterCsv('licenceNumber\r\n')).toEqual({ items: [] });
  });

  it('names the row of an unclosed quote', () => {
    expect(readRosterCsv(`licenceNumber,reference\n${A},"open\n`)).toEqual(rejection('Row 2: CSV could not be read (check quotes and separators)'));
  });
});

describe('writeResultsCsv', () => {
  const found: ResultRow = {
    reference: 'North Gate, "A"',
    licenceNumber: A,
    status: 'FOUND',
    errorCode: null,
    // Only the fields the download reads; the others come out empty.
    licence: { licenceNumber: A, firstName: 'AHMED', surname: 'KHAN', role: 'Front Line', licenceSector: 'CCTV' } as never,
    checkedAt: '2026-11-22T10:00:00.000Z',
    holderCheck: { name: 'PARTIAL', dateOfBirth: 'CONFIRMED' },
    verificationId: '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11',
  };
  const failed: ResultRow = {
    reference: '=cmd',
    licenceNumber: B,
    status: 'ERROR',
    errorCode: 'SERVICE_UNAVAILABLE',
    licence: null,
    checkedAt: null,
    holderCheck: null,
    verificationId: null,
  };

  it('starts with a UTF-8 BOM and ends records with CRLF', () => {
    const csv = writeResultsCsv([found]);
    expect(
      csv.startsWith(
        '\uFEFFreference,licenceNumber,result,errorCode,name,role,sector,expiryDate,licenceStatus,statusReason,checkedAt,nameCheck,dateOfBirthCheck,verificationId\r\n',
      ),
    ).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('quotes as RFC 4180 says and neutralises formulas, parsing back to the same cells', () => {
    expect(parse(writeResultsCsv([found, failed]), { bom: true })).toEqual([
      [...RESULT_COLUMNS], // spelled out by the test above
      [
        'North Gate, "A"',
        A,
        'FOUND',
        '',
        'AHMED KHAN',
        'Front Line',
        'CCTV',
        '',
        '',
        '',
        '2026-11-22T10:00:00.000Z',
        'PARTIAL',
        'CONFIRMED',
        '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11',
      ],
      ["'=cmd", B, 'ERROR', 'SERVICE_UNAVAILABLE', '', '', '', '', '', '', '', '', '', ''],
    ]);
    expect(writeResultsCsv([found])).toContain('"North Gate, ""A"""');
  });
});
