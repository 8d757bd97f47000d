import { createHash } from 'node:crypto';
import { isLicenceNumber } from '../verification/verify-request';
import { FEATURE_VALIDATION_MESSAGES, RowProblem, VALIDATION_MESSAGES, rowMessage } from '../errors/error-codes';

/** One row of a roster: a licence number and the partner's own reference for it. */
export interface RosterEntry {
  licenceNumber: string;
  reference: string | null;
}

/** A roster that can be checked, or the fixed text saying why not. */
export type RosterReading = { entries: RosterEntry[] } | { problem: string };

export const MAX_BATCH_ITEMS = 1000;
export const MAX_REFERENCE_LENGTH = 100;
const ITEM_FIELDS = new Set(['licenceNumber', 'reference']);

/** The problem with one row's values, if any; an empty reference counts as none. */
export function checkRow(licenceNumber: unknown, reference: unknown): RowProblem | null {
  if (!isLicenceNumber(licenceNumber)) return 'licenceNumber';
  if (reference === undefined || reference === null) return null;
  if (typeof reference !== 'string' || reference.length > MAX_REFERENCE_LENGTH) return 'reference';
  return null;
}

interface RawRow {
  licenceNumber: unknown;
  reference: unknown;
}

/**
 * Checks rows in order and stops at the first bad one, naming it; `rowNumbers` gives each row's
 * number as the caller sees it (JSON items count from 1, CSV rows as a spreadsheet shows them).
 * `toRow` returns null for a row that does not have the shape of one.
 */
export function checkRoster<T>(rows: T[], rowNumbers: number[], toRow: (row: T) => RawRow | null): RosterReading {
  if (rows.length < 1 || rows.length > MAX_BATCH_ITEMS) return { problem: FEATURE_VALIDATION_MESSAGES.batchSize };
  const entries: RosterEntry[] = [];
  for (const [position, row] of rows.entries()) {
    const raw = toRow(row);
    const problem = raw ? checkRow(raw.licenceNumber, raw.reference) : 'item';
    if (problem) return { problem: rowMessage(rowNumbers[position], problem) };
    const { licenceNumber, reference } = raw as { licenceNumber: string; reference: string | null | undefined };
    entries.push({ licenceNumber, reference: reference ? reference : null });
  }
  return { entries };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asItem(item: unknown): RawRow | null {
  if (!isPlainObject(item) || Object.keys(item).some((key) => !ITEM_FIELDS.has(key))) return null;
  return { licenceNumber: item.licenceNumber, reference: item.reference };
}

/** Reads `{"items":[{licenceNumber, reference?}]}` or `{"licenceNumbers":[…]}`. */
export function readRosterJson(body: unknown): RosterReading {
  if (!isPlainObject(body)) return { problem: VALIDATION_MESSAGES.notJson };
  const [key, ...others] = Object.keys(body);
  const list = body[key];
  if (others.length > 0 || !Array.isArray(list) || (key !== 'items' && key !== 'licenceNumbers')) {
    return { problem: FEATURE_VALIDATION_MESSAGES.batchShape };
  }
  const rowNumbers = list.map((_, position) => position + 1);
  if (key === 'items') return checkRoster(list, rowNumbers, asItem);
  return checkRoster(list, rowNumbers, (licenceNumber) => ({ licenceNumber, reference: null }));
}

/** Each number once, in a stable order (charging takes its row locks in this order). */
export function distinctNumbers(entries: RosterEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.licenceNumber))].sort();
}

/** Identifies a request's rows, so that an Idempotency-Key replayed with other rows is refused. */
export function rosterHash(entries: RosterEntry[]): string {
  return createHash('sha256').update(JSON.stringify(entries.map((entry) => [entry.licenceNumber, entry.reference]))).digest('hex');
}
