import { SANDBOX_LICENCES } from '@lvs/test-register';
import { RECORD_CSV_COLUMNS, recordCsvCells } from './record-csv';
import type { VerificationRecord } from './verification-record';

const RECORD: VerificationRecord = {
  verificationId: 'v1',
  userId: 'u1',
  keyId: 'k1',
  memberId: null,
  requestId: 'r1',
  idempotencyKey: '=HYPERLINK("x")',
  licenceNumber: '1011001544208079',
  status: 'FOUND',
  licence: { ...SANDBOX_LICENCES.active, surname: '-DOE' },
  checkedAt: '2026-11-22T10:00:00.000Z',
  answeredAt: '2026-11-22T10:00:01.000Z',
  source: 'register',
  nameCheck: null,
  dateOfBirthCheck: null,
  batchId: 'b1',
  row: 3,
  channel: 'batch',
};

describe('the verification export', () => {
  it("names the record's fields, the licence's flattened in its place", () => {
    expect(RECORD_CSV_COLUMNS).toEqual([
      'verificationId',
      'userId',
      'keyId',
      'memberId',
      'memberName',
      'requestId',
      'idempotencyKey',
      'licenceNumber',
      'status',
      'licence.licenceNumber',
      'licence.firstName',
      'licence.surname',
      'licence.dateOfBirth',
      'licence.licenceType',
      'licence.role',
      'licence.licenceSector',
      'licence.expiryDate',
      'licence.status',
      'licence.statusReason',
      'licence.additionalConditions',
      'checkedAt',
      'answeredAt',
      'source',
      'nameCheck',
      'dateOfBirthCheck',
      'batchId',
      'row',
      'channel',
    ]);
  });

  it('writes a cell per column, nulls empty and formulas neutralised', () => {
    const cells = recordCsvCells(RECORD, new Map([['m1', 'Jane Smith']]));
    expect(cells).toHaveLength(RECORD_CSV_COLUMNS.length);
    expect(cells).toEqual([
      'v1',
      'u1',
      'k1',
      '',
      '',
      'r1',
      `'=HYPERLINK("x")`,
      '1011001544208079',
      'FOUND',
      '1011001544208079',
      'JANE',
      "'-DOE",
      '',
      '',
      'Front Line',
      'Door Supervision',
      '2027-06-06',
      'Active',
      '',
      '',
      '2026-11-22T10:00:00.000Z',
      '2026-11-22T10:00:01.000Z',
      'register',
      '',
      '',
      'b1',
      '3',
      'batch',
    ]);
    expect(recordCsvCells({ ...RECORD, licence: null }, new Map()).slice(9, 20)).toEqual(Array(11).fill(''));
  });

  it("writes a member's display name beside their id, neutralised as any cell, and none for a member it does not know", () => {
    const names = new Map([
      ['m1', 'Jane Smith'],
      ['m2', '=Evil()'],
    ]);
    const memberCells = (memberId: string | null) => recordCsvCells({ ...RECORD, keyId: null, memberId }, names).slice(2, 5);
    expect([memberCells('m1'), memberCells('m2'), memberCells('m3'), memberCells(null)]).toEqual([
      ['', 'm1', 'Jane Smith'],
      ['', 'm2', "'=Evil()"],
      ['', 'm3', ''],
      ['', '', ''],
    ]);
  });
});
