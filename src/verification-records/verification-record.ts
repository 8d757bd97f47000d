import type { RegisterLicence } from '@lvs/register';
import { hash } from 'node:crypto';

export type RecordChannel = 'api' | 'console' | 'batch';

export type RecordStatus = 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS';

/** A final result as the lookups module caches and answers it. */
export interface AnsweredResult {
  status: RecordStatus;
  licence: RegisterLicence | null;
  checkedAt: string;
}

/** A holder check's outcome, as verify-holder answers it (the holders module decides it). */
export interface HolderCheckOutcome {
  name: 'MATCH' | 'PARTIAL' | 'MISMATCH';
  dateOfBirth: 'CONFIRMED' | 'NOT_CONFIRMED' | 'UNDETERMINED' | 'NOT_CHECKED';
}

/** What we answered, to whom, when and from what: one per final answer, never changed (issue 33). */
export interface VerificationRecord {
  verificationId: string;
  userId: string;
  keyId: string | null;
  /** the member who asked in the console, or uploaded the roster there; null for a key (an API call, a key's console session) */
  memberId: string | null;
  requestId: string | null;
  idempotencyKey: string | null;
  licenceNumber: string;
  status: RecordStatus;
  licence: RegisterLicence | null;
  /** when the register was asked */
  checkedAt: string;
  /** when we answered */
  answeredAt: string;
  source: 'register' | 'cache';
  /** holder checks only; the date of birth itself is never recorded */
  nameCheck: HolderCheckOutcome['name'] | null;
  dateOfBirthCheck: HolderCheckOutcome['dateOfBirth'] | null;
  /** roster rows only: the batch, and the row (from 1) as in its results */
  batchId: string | null;
  row: number | null;
  channel: RecordChannel;
}

/** The fields of a record, in the order the API, the export and the receipt show them. */
export const RECORD_FIELDS = [
  'verificationId',
  'userId',
  'keyId',
  'memberId',
  'requestId',
  'idempotencyKey',
  'licenceNumber',
  'status',
  'licence',
  'checkedAt',
  'answeredAt',
  'source',
  'nameCheck',
  'dateOfBirthCheck',
  'batchId',
  'row',
  'channel',
] as const satisfies readonly (keyof VerificationRecord)[];

/**
 * The fields of a record that its receipt signs, in RECORD_FIELDS order: all but the text a client chose (its
 * X-Request-Id and Idempotency-Key), which the service must not sign as if it were its own statement. The record
 * itself (GET /v1/verifications/{id}) still shows them to their owner, and the verificationId ties the two.
 */
export const RECEIPT_FIELDS = RECORD_FIELDS.filter((field) => field !== 'requestId' && field !== 'idempotencyKey');

/** A final answer of verify or verify-holder (API or console), as it left us. */
export interface RecordedAnswer {
  userId: string;
  /** null for a member's console session, which memberId names */
  keyId: string | null;
  /** the member of a console session; absent for a key */
  memberId?: string | null;
  requestId: string;
  idempotencyKey: string;
  licenceNumber: string;
  channel: Exclude<RecordChannel, 'batch'>;
  result: AnsweredResult;
  source: 'register' | 'cache';
  /** a holder check's outcome; undefined for verify; null when the licence was not found */
  holderCheck?: HolderCheckOutcome | null;
}

/** The record of an answer, its fields in RECORD_FIELDS order. */
export function recordOf(answer: RecordedAnswer, verificationId: string, answeredAt: Date): VerificationRecord {
  const { result } = answer;
  return {
    verificationId,
    userId: answer.userId,
    keyId: answer.keyId,
    memberId: answer.memberId ?? null,
    requestId: answer.requestId,
    idempotencyKey: answer.idempotencyKey,
    licenceNumber: answer.licenceNumber,
    status: result.status,
    licence: result.status === 'FOUND' ? result.licence : null,
    checkedAt: result.checkedAt,
    answeredAt: answeredAt.toISOString(),
    source: answer.source,
    nameCheck: answer.holderCheck?.name ?? null,
    dateOfBirthCheck: answer.holderCheck?.dateOfBirth ?? null,
    batchId: null,
    row: null,
    channel: answer.channel,
  };
}

/**
 * What a replay must match to keep an answer's id: the answer as its record shows it (status, licence, checkedAt,
 * holder outcome). A new lookup has a new checkedAt, and a changed cache entry a new licence, so either is a new
 * answer with its own record. Where it came from (register, then cache on a replay) is not part of it.
 */
export function answerFingerprint(answer: RecordedAnswer): string {
  const { status, licence, checkedAt } = answer.result;
  return hash('sha256', JSON.stringify([status, status === 'FOUND' ? licence : null, checkedAt, answer.holderCheck ?? null]), 'hex');
}

/**
 * A stored record with every field of RECORD_FIELDS, in order: one stored before a field existed (memberId, before
 * members, or in a roster's record before RosterMembers1765497600000) has it as null.
 */
export function completeRecord(stored: Partial<VerificationRecord>): VerificationRecord {
  return Object.fromEntries(RECORD_FIELDS.map((field) => [field, stored[field] ?? null])) as unknown as VerificationRecord;
}
