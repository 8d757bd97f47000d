import { DEMO_SLOW_NUMBERS } from '@lvs/test-register';
import type { FaultName, SandboxData, SandboxLicence } from '@lvs/test-register';

/**
 * What the built-in test register answers for a number: a licence (with the date of birth the name search filters
 * on), no licence, too many, or one of the register's failures.
 */
export type TestAnswer =
  | { kind: 'found'; licence: SandboxLicence }
  | { kind: 'not_found' }
  | { kind: 'too_many_results' }
  | { kind: 'unavailable' }
  | { kind: 'unexpected_page' };

/** The magic numbers of docs/api.md "Test mode", one per outcome a partner may want to force. */
export const MAGIC_NUMBERS = {
  active: '4000000000000001',
  expired: '4000000000000002',
  revoked: '4000000000000003',
  suspended: '4000000000000004',
  replaced: '4000000000000005',
  replacedSuccessor: '4000000000000006',
  notFound: '4000000000000404',
  tooManyResults: '4000000000000409',
  slow: '4000000000000202',
  unavailable: '4000000000000503',
  unexpectedPage: '4000000000000502',
} as const;

/** How long the slow number keeps its answer back: longer than VERIFY_TIMEOUT_MS's default, so the first answer is 202. */
export const SLOW_ANSWER_MS = 8000;

function magicLicence(licenceNumber: string, surname: string, status: string, dateOfBirth: string, expiryDate: string): SandboxLicence {
  return {
    licenceNumber,
    firstName: 'TEST',
    middleName: null,
    surname,
    dateOfBirth,
    role: 'Front Line',
    licenceSector: 'Door Supervision',
    expiryDate,
    status,
    statusReason: null,
    additionalConditions: null,
  };
}

/** The licences behind the magic numbers that answer FOUND; the two REPLACED cards belong to one holder. */
export const MAGIC_LICENCES: readonly SandboxLicence[] = [
  magicLicence(MAGIC_NUMBERS.active, 'ACTIVE', 'Active', '1990-01-01', '2030-01-01'),
  magicLicence(MAGIC_NUMBERS.expired, 'EXPIRED', 'Expired', '1990-01-01', '2024-01-01'),
  magicLicence(MAGIC_NUMBERS.revoked, 'REVOKED', 'Revoked', '1990-01-01', '2030-01-01'),
  magicLicence(MAGIC_NUMBERS.suspended, 'SUSPENDED', 'Suspended', '1990-01-01', '2030-01-01'),
  magicLicence(MAGIC_NUMBERS.replaced, 'REPLACED', 'Replaced', '1985-05-05', '2030-01-01'),
  magicLicence(MAGIC_NUMBERS.replacedSuccessor, 'REPLACED', 'Active', '1985-05-05', '2031-01-01'),
  magicLicence(MAGIC_NUMBERS.slow, 'PENDING', 'Active', '1990-01-01', '2030-01-01'),
];

const MAGIC_BY_NUMBER = new Map(MAGIC_LICENCES.map((licence) => [licence.licenceNumber, licence]));

/** The demo's fault numbers as the register client would read them: an unavailable register, or a page it cannot read. */
const UNAVAILABLE_FAULTS: ReadonlySet<FaultName> = new Set(['status-500', 'status-503', 'status-429', 'hang', 'reset']);

/** A user's test world: the demo's data set, and the licences the user's simulated changes made (by number). */
export interface TestWorld {
  sandbox: SandboxData;
  changed: ReadonlyMap<string, SandboxLicence>;
}

/**
 * The test register's answer for one number: a simulated change first (it replaces whatever the number answered),
 * then the magic numbers, then the demo's data set (its too-many, fault and found numbers), else NOT_FOUND.
 */
export function testAnswer(licenceNumber: string, world: TestWorld): TestAnswer {
  const changed = world.changed.get(licenceNumber);
  if (changed) return { kind: 'found', licence: changed };
  switch (licenceNumber) {
    case MAGIC_NUMBERS.notFound:
      return { kind: 'not_found' };
    case MAGIC_NUMBERS.tooManyResults:
      return { kind: 'too_many_results' };
    case MAGIC_NUMBERS.unavailable:
      return { kind: 'unavailable' };
    case MAGIC_NUMBERS.unexpectedPage:
      return { kind: 'unexpected_page' };
  }
  const magic = MAGIC_BY_NUMBER.get(licenceNumber);
  if (magic) return { kind: 'found', licence: magic };
  if (world.sandbox.tooManyResults.has(licenceNumber)) return { kind: 'too_many_results' };
  const fault = world.sandbox.reservedFaults.get(licenceNumber);
  if (fault) return { kind: UNAVAILABLE_FAULTS.has(fault) ? 'unavailable' : 'unexpected_page' };
  const cards = world.sandbox.licencesByNumber.get(licenceNumber) ?? [];
  // As the register client reads them: several cards under one number are as unusable as too many results.
  if (cards.length > 1) return { kind: 'too_many_results' };
  return cards.length === 1 ? { kind: 'found', licence: cards[0] } : { kind: 'not_found' };
}

/** Whether the test register may keep its answer back for the number: only the slow ones do, whatever the world. */
export function mayHoldBackTestAnswer(licenceNumber: string): boolean {
  return licenceNumber === MAGIC_NUMBERS.slow || licenceNumber.startsWith(DEMO_SLOW_NUMBERS.prefix);
}

/** How long the test register keeps its answer back: the slow magic number, and the demo's slow numbers, unless changed. */
export function testAnswerDelayMs(licenceNumber: string, world: TestWorld): number {
  if (!mayHoldBackTestAnswer(licenceNumber) || world.changed.has(licenceNumber)) return 0;
  return licenceNumber === MAGIC_NUMBERS.slow ? SLOW_ANSWER_MS : DEMO_SLOW_NUMBERS.latencyMs;
}

/** Every licence a name search may find in the world: the data set's, the magic ones, each replaced by its change. */
export function testWorldLicences(world: TestWorld): SandboxLicence[] {
  const byNumber = new Map<string, SandboxLicence[]>(world.sandbox.licencesByNumber as Map<string, SandboxLicence[]>);
  for (const licence of MAGIC_LICENCES) byNumber.set(licence.licenceNumber, [licence]);
  for (const [licenceNumber, licence] of world.changed) byNumber.set(licenceNumber, [licence]);
  return [...byNumber.values()].flat();
}

/** Never cached: the slow number answers late every time, so every retry shows the 202 first. */
export function isCachedTestAnswer(licenceNumber: string): boolean {
  return licenceNumber !== MAGIC_NUMBERS.slow;
}
