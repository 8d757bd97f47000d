import { readFile } from 'node:fs/promises';
import shippedData from '../data/licences.json';
import { isFaultName } from './fault-names';
import type { FaultName } from './fault-names';

/** A licence as the sandbox serves it; dates are ISO (YYYY-MM-DD) and rendered the register's way. */
export interface SandboxLicence {
  licenceNumber: string;
  firstName: string;
  /** Never shown on a card, like the date of birth; the name search filters on both. */
  middleName: string | null;
  surname: string;
  /** YYYY-MM-DD, or null for a holder the name search cannot confirm a date for. */
  dateOfBirth: string | null;
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
  /** Surnames, upper case, so common that every name search on them is answered "Too many search results". */
  tooManySurnames: ReadonlySet<string>;
  /** Numbers that always misbehave, unless a run-time fault says otherwise. */
  reservedFaults: ReadonlyMap<string, FaultName>;
}

const LICENCE_NUMBER = /^\d{16}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads and checks a data file; without one, the data set shipped in libs/test-register/data. */
export async function loadSandboxData(dataFile?: string): Promise<SandboxData> {
  const text = dataFile === undefined ? null : await readFile(dataFile, 'utf8');
  try {
    return toSandboxData(text === null ? shippedData : JSON.parse(text));
  } catch (error) {
    const source = dataFile ?? 'the shipped data file';
    throw new Error(`Sandbox data in ${source} is invalid: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function toSandboxData(raw: unknown): SandboxData {
  const root = asRecord(raw, 'the file');
  const licencesByNumber = new Map<string, SandboxLicence[]>();
  asArray(root.licences, 'licences').forEach((entry, index) => {
    const licence = parseSandboxLicence(entry, `licences[${index}]`);
    licencesByNumber.set(licence.licenceNumber, [...(licencesByNumber.get(licence.licenceNumber) ?? []), licence]);
  });
  const tooManyResults = new Set(asArray(root.tooManyResults, 'tooManyResults').map((number, index) => licenceNumber(number, `tooManyResults[${index}]`)));
  const reservedFaults = new Map<string, FaultName>();
  for (const [number, fault] of Object.entries(asRecord(root.faults, 'faults'))) {
    licenceNumber(number, `faults key "${number}"`);
    if (!isFaultName(fault)) throw new Error(`faults["${number}"] is not a fault name`);
    reservedFaults.set(number, fault);
  }
  // Optional, so that data files written before the name search still load.
  const tooManySurnames = new Set(
    asArray(root.tooManySurnames ?? [], 'tooManySurnames').map((surname, index) => {
      if (typeof surname !== 'string' || surname.trim() === '') throw new Error(`tooManySurnames[${index}] must be a non-empty string`);
      return searchKey(surname);
    }),
  );
  return { licencesByNumber, tooManyResults, tooManySurnames, reservedFaults };
}

/** A name or field as the sandbox's name search compares it: upper case, white space trimmed and collapsed. */
export function searchKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** Checks one licence of a data file, or of the admin call that adds one; where names it in errors. */
export function parseSandboxLicence(raw: unknown, where: string): SandboxLicence {
  const entry = asRecord(raw, where);
  const text = (field: string): string => {
    const value = entry[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new Error(`${where}.${field} must be a non-empty string`);
    }
    return value;
  };
  const textOrNull = (field: string): string | null => (entry[field] === null || entry[field] === undefined ? null : text(field));
  const isoDate = (field: string, value: string): string => {
    if (!isIsoDate(value)) throw new Error(`${where}.${field} must be a YYYY-MM-DD date`);
    return value;
  };
  const dateOfBirth = textOrNull('dateOfBirth');
  return {
    licenceNumber: licenceNumber(entry.licenceNumber, `${where}.licenceNumber`),
    firstName: text('firstName'),
    middleName: textOrNull('middleName'),
    surname: text('surname'),
    dateOfBirth: dateOfBirth === null ? null : isoDate('dateOfBirth', dateOfBirth),
    role: text('role'),
    licenceSector: textOrNull('licenceSector'),
    expiryDate: isoDate('expiryDate', text('expiryDate')),
    status: text('status'),
    statusReason: textOrNull('statusReason'),
    additionalConditions: textOrNull('additionalConditions'),
  };
}

export function isIsoDate(text: string): boolean {
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
