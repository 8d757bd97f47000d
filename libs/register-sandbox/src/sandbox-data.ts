import { readFile } from 'node:fs/promises';
import shippedData from '../data/licences.json';
import { isFaultName } from './faults';
import type { FaultName } from './faults';

/** A licence as the sandbox serves it; dates are ISO (YYYY-MM-DD) and rendered the register's way. */
export interface SandboxLicence {
  licenceNumber: string;
  firstName: string;
  surname: string;
  role: string;
  licenceSector: string | null;
  expiryDate: string;
  status: string;
  statusReason: string | null;
  additionalConditions: string | null;
}

export interface SandboxData {
  /** Several entries under one number are served as several result cards. */
  licencesByNumber: ReadonlyMap<string, readonly SandboxLicence[]>;
  /** Numbers answered with the "Too many search results" page. */
  tooManyResults: ReadonlySet<string>;
  /** Numbers that always misbehave, unless a run-time fault says otherwise. */
  reservedFaults: ReadonlyMap<string, FaultName>;
}

const LICENCE_NUMBER = /^\d{16}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads and checks a data file; without one, the data set shipped in libs/register-sandbox/data. */
export async function loadSandboxData(dataFile?: string): Promise<SandboxData> {
  const text = dataFile === undefined ? null : await readFile(dataFile, 'utf8');
  try {
    return toSandboxData(text === null ? shippedData : JSON.parse(text));
  } catch (error) {
    const source = dataFile ?? 'the shipped data file';
    throw new Error(`Sandbox data in ${source} is invalid: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function toSandboxData(raw: unknown): SandboxData {
  const root = asRecord(raw, 'the file');
  const licencesByNumber = new Map<string, SandboxLicence[]>();
  asArray(root.licences, 'licences').forEach((entry, index) => {
    const licence = toLicence(asRecord(entry, `licences[${index}]`), `licences[${index}]`);
    licencesByNumber.set(licence.licenceNumber, [...(licencesByNumber.get(licence.licenceNumber) ?? []), licence]);
  });
  const tooManyResults = new Set(
    asArray(root.tooManyResults, 'tooManyResults').map((number, index) =>
      licenceNumber(number, `tooManyResults[${index}]`),
    ),
  );
  const reservedFaults = new Map<string, FaultName>();
  for (const [number, fault] of Object.entries(asRecord(root.faults, 'faults'))) {
    licenceNumber(number, `faults key "${number}"`);
    if (!isFaultName(fault)) throw new Error(`faults["${number}"] is not a fault name`);
    reservedFaults.set(number, fault);
  }
  return { licencesByNumber, tooManyResults, reservedFaults };
}

function toLicence(entry: Record<string, unknown>, where: string): SandboxLicence {
  const text = (field: string): string => {
    const value = entry[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new Error(`${where}.${field} must be a non-empty string`);
    }
    return value;
  };
  const textOrNull = (field: string): string | null =>
    entry[field] === null || entry[field] === undefined ? null : text(field);
  const expiryDate = text('expiryDate');
  if (!isIsoDate(expiryDate)) {
    throw new Error(`${where}.expiryDate must be a YYYY-MM-DD date`);
  }
  return {
    licenceNumber: licenceNumber(entry.licenceNumber, `${where}.licenceNumber`),
    firstName: text('firstName'),
    surname: text('surname'),
    role: text('role'),
    licenceSector: textOrNull('licenceSector'),
    expiryDate,
    status: text('status'),
    statusReason: textOrNull('statusReason'),
    additionalConditions: textOrNull('additionalConditions'),
  };
}

function isIsoDate(text: string): boolean {
  const time = Date.parse(text);
  // Date.parse rolls 2027-02-31 over into March, so the date must also survive a round trip.
  return ISO_DATE.test(text) && !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

function licenceNumber(value: unknown, where: string): string {
  if (typeof value !== 'string' || !LICENCE_NUMBER.test(value)) throw new Error(`${where} must be 16 digits`);
  return value;
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${where} must be an object`);
  }
  return { ...value };
}

function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be an array`);
  return value;
}
