/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return before
 * one) gets a leading apostrophe, the OWASP advice against CSV injection: the downloads (batch results,
 * verification records) carry callers' own text and the register's.
 */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
