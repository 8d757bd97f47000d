import type { RegisterLicence } from '@lvs/register';
import { neutraliseFormula } from '../common/csv-cells';
import { RECORD_FIELDS, VerificationRecord } from '../evidence/verification-record';

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

/** The export's header: the record's fields in order, the licence's flattened in its place as licence.<field>. */
export const RECORD_CSV_COLUMNS: readonly string[] = RECORD_FIELDS.flatMap((field) =>
  field === 'licence' ? LICENCE_FIELDS.map((name) => `licence.${name}`) : [field],
);

function text(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** One record as the export's cells, formula-like cells neutralised as in roster results. */
export function recordCsvCells(record: VerificationRecord): string[] {
  return RECORD_FIELDS.flatMap((field) => (field === 'licence' ? LICENCE_FIELDS.map((name) => text(record.licence?.[name])) : [text(record[field])])).map(
    neutraliseFormula,
  );
}
