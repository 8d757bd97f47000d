import type { RegisterLicence } from '@lvs/register';
import { neutraliseFormula } from '../common/csv-cells';
import { RECORD_FIELDS, VerificationRecord } from './verification-record';

const LICENCE_FIELDS = [
  'licenceNumber',
  'firstName',
  'surname',
  'dateOfBirth',
  'licenceType',
  'role',
  'licenceSector',
  'expiryDate',
  'status',
  'statusReason',
  'additionalConditions',
] as const satisfies readonly (keyof RegisterLicence)[];

/**
 * The export's header: the record's fields in order, the licence's flattened in its place as licence.<field>, and
 * beside memberId the member's display name, which a person reading the file knows them by.
 */
export const RECORD_CSV_COLUMNS: readonly string[] = RECORD_FIELDS.flatMap((field) => {
  if (field === 'licence') return LICENCE_FIELDS.map((name) => `licence.${name}`);
  return field === 'memberId' ? [field, 'memberName'] : [field];
});

function text(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * One record as the export's cells, formula-like cells neutralised as in roster results (a display name is the
 * member's own text). `memberNames`: the account's members' display names by id.
 */
export function recordCsvCells(record: VerificationRecord, memberNames: ReadonlyMap<string, string>): string[] {
  return RECORD_FIELDS.flatMap((field) => {
    if (field === 'licence') return LICENCE_FIELDS.map((name) => text(record.licence?.[name]));
    return field === 'memberId' ? [text(record.memberId), text(record.memberId && memberNames.get(record.memberId))] : [text(record[field])];
  }).map(neutraliseFormula);
}
