const ROW_NUMBERS = Symbol('rowNumbers');

type Rows<T> = T[] & { [ROW_NUMBERS]?: readonly number[] };

/**
 * Marks an array as the rows of a roster: a problem inside its element i is told as "Row <n>: …", n being
 * `rowNumbers[i]` (rows as the caller counts them: from 1 in JSON, as a spreadsheet shows them in CSV).
 * A hidden symbol property, so it is neither a field a caller could send nor one class-validator would see.
 */
export function numberRows<T>(rows: T[], rowNumbers: readonly number[] = rows.map((_, index) => index + 1)): T[] {
  Object.defineProperty(rows, ROW_NUMBERS, { value: rowNumbers, configurable: true });
  return rows;
}

/** The row numbers `numberRows` gave an array, if it did. */
export function rowNumbersOf(rows: unknown): readonly number[] | undefined {
  return Array.isArray(rows) ? (rows as Rows<unknown>)[ROW_NUMBERS] : undefined;
}
