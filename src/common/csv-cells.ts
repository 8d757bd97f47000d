/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return before
 * one) gets a leading apostrophe, the OWASP advice against CSV injection: the downloads (batch results,
 * verification records) carry callers' own text and the register's.
 */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * How every download is written (batch results, verification records, the activity log): UTF-8 with a BOM, RFC 4180
 * quoting and CRLF line ends, so that spreadsheets open it as is. csv-stringify's options, sync or streaming.
 */
export const DOWNLOAD_CSV = { bom: true, record_delimiter: 'windows' } as const;
