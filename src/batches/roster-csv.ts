import type { RegisterLicence } from '@lvs/register';
import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FEATURE_VALIDATION_MESSAGES, rowMessage } from '../errors/error-codes';
import { DOWNLOAD_CSV, neutraliseFormula } from '../common/csv-cells';
import { numberRows } from '../validation/numbered-rows';
import { BodyPolicy, JSON_ROSTER_BODY, RejectedBody } from '../http/decode-request-body';
import type { HolderCheck } from '../holders/holder-check';

/** Header names a spreadsheet may use for the number, compared without case, spaces or underscores. */
const NUMBER_HEADERS = new Set(['licencenumber']);
const REFERENCE_HEADERS = new Set(['reference']);
/** Optional holder columns, by the field each fills (header names compared as above). */
const HOLDER_HEADERS = [
  ['firstName', 'firstname'],
  ['surname', 'surname'],
  ['dateOfBirth', 'dateofbirth'],
] as const;

const normaliseHeader = (cell: string) => cell.toLowerCase().replace(/[\s_]/g, '');

/**
 * The separator of the header line: spreadsheets in many locales write `;`, others `,`. Taken
 * from the header, where no cell holds either, so quoted commas in later rows never mislead it.
 */
export function detectSeparator(text: string): ';' | ',' {
  const headerLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
  const count = (separator: string) => headerLine.split(separator).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** A CSV roster as the plain object a JSON roster is: {"items":[…]}, its rows numbered as in the file. */
export interface CsvRoster {
  items: Array<{ licenceNumber: string; reference?: string; firstName?: string; surname?: string; dateOfBirth?: string }>;
}

/**
 * Reads a roster CSV as spreadsheets write it (BOM, CRLF, quoted fields, `;` or `,`, blank lines) into the
 * shape of a JSON roster, which RosterDto then validates. Rows are numbered as a spreadsheet shows them:
 * the header is row 1, and blank lines count.
 */
export function readRosterCsv(text: string): CsvRoster | RejectedBody {
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: detectSeparator(text), trim: true, relax_column_count: true });
  } catch (error) {
    if (error instanceof CsvError) {
      return new RejectedBody(rowMessage(typeof error.lines === 'number' ? Math.max(error.lines, 1) : 1, 'csvRecord'));
    }
    throw error;
  }
  const header = (records[0] ?? []).map(normaliseHeader);
  const numberColumn = header.findIndex((cell) => NUMBER_HEADERS.has(cell));
  if (numberColumn === -1) return new RejectedBody(FEATURE_VALIDATION_MESSAGES.csvHeader);
  const referenceColumn = header.findIndex((cell) => REFERENCE_HEADERS.has(cell));
  const holderColumns = HOLDER_HEADERS.map(([field, name]) => [field, header.indexOf(name)] as const).filter(([, column]) => column !== -1);
  const items: CsvRoster['items'] = [];
  const rowNumbers: number[] = [];
  records.slice(1).forEach((record, position) => {
    if (record.every((cell) => cell === '')) return; // blank lines, and `;;` rows spreadsheets leave at the end
    const reference = referenceColumn === -1 ? undefined : record[referenceColumn];
    // An empty holder cell is no value: a roster may name holders on some rows only.
    const holder = Object.fromEntries(
      holderColumns.map(([field, column]): [string, string] => [field, record[column] ?? '']).filter(([, value]) => value !== ''),
    );
    items.push({ licenceNumber: record[numberColumn] ?? '', ...(reference === undefined ? {} : { reference }), ...holder });
    rowNumbers.push(position + 2);
  });
  return { items: numberRows(items, rowNumbers) };
}

/** One item's result as the download shows it. */
/** A roster body: JSON, or CSV read by readRosterCsv (POST /v1/batches, and the console's uploads). */
export const CSV_ROSTER_BODY: BodyPolicy = { ...JSON_ROSTER_BODY, csv: readRosterCsv };

export interface ResultRow {
  reference: string | null;
  licenceNumber: string;
  status: string;
  errorCode: string | null;
  licence: RegisterLicence | null;
  checkedAt: string | null;
  /** null for a row that names no holder, or whose check is not made yet */
  holderCheck: HolderCheck | null;
  /** null until the row's answer is final, and on ERROR */
  verificationId: string | null;
}

export const RESULT_COLUMNS = [
  'reference',
  'licenceNumber',
  'result',
  'errorCode',
  'name',
  'role',
  'sector',
  'expiryDate',
  'licenceStatus',
  'statusReason',
  'checkedAt',
  'nameCheck',
  'dateOfBirthCheck',
  'verificationId',
] as const;

function cellsOf(row: ResultRow): string[] {
  const licence = row.licence;
  return [
    row.reference ?? '',
    row.licenceNumber,
    row.status,
    row.errorCode ?? '',
    licence ? `${licence.firstName} ${licence.surname}` : '',
    licence?.role ?? '',
    licence?.licenceSector ?? '',
    licence?.expiryDate ?? '',
    licence?.status ?? '',
    licence?.statusReason ?? '',
    row.checkedAt ?? '',
    row.holderCheck?.name ?? '',
    row.holderCheck?.dateOfBirth ?? '',
    row.verificationId ?? '',
  ].map(neutraliseFormula);
}

/** The results download, written as every download is (DOWNLOAD_CSV). */
export function writeResultsCsv(rows: ResultRow[]): string {
  return stringify([[...RESULT_COLUMNS], ...rows.map(cellsOf)], DOWNLOAD_CSV);
}
