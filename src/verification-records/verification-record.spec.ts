import { SANDBOX_LICENCES } from '@lvs/test-register';
import { answerFingerprint, completeRecord, RECORD_FIELDS, recordOf } from './verification-record';

const LICENCE = SANDBOX_LICENCES.active;
const ANSWER = {
  userId: 'u1',
  keyId: 'k1',
  requestId: 'r1',
  idempotencyKey: 'key-1',
  licenceNumber: '1011001544208079',
  channel: 'api' as const,
  source: 'cache' as const,
};

describe('recordOf', () => {
  it('records a found verify answer with every field, holder and roster fields null', () => {
    const record = recordOf(
      { ...ANSWER, result: { status: 'FOUND', licence: LICENCE, checkedAt: '2026-11-22T10:00:00.000Z' } },
      'v1',
      new Date('2026-11-22T10:00:01.000Z'),
    );
    expect(Object.keys(record)).toEqual([...RECORD_FIELDS]);
    expect(record).toEqual({
      verificationId: 'v1',
      userId: 'u1',
      keyId: 'k1',
      memberId: null,
      requestId: 'r1',
      idempotencyKey: 'key-1',
      licenceNumber: '1011001544208079',
      status: 'FOUND',
      licence: LICENCE,
      checkedAt: '2026-11-22T10:00:00.000Z',
      answeredAt: '2026-11-22T10:00:01.000Z',
      source: 'cache',
      nameCheck: null,
      dateOfBirthCheck: null,
      batchId: null,
      row: null,
      channel: 'api',
    });
  });

  it("records a holder check's outcome, and no licence when none was found", () => {
    const found = recordOf(
      {
        ...ANSWER,
        channel: 'console',
        result: { status: 'FOUND', licence: LICENCE, checkedAt: 'c' },
        holderCheck: { name: 'PARTIAL', dateOfBirth: 'CONFIRMED' },
      },
      'v2',
      new Date(0),
    );
    expect(found).toMatchObject({ nameCheck: 'PARTIAL', dateOfBirthCheck: 'CONFIRMED', channel: 'console' });
    const notFound = recordOf({ ...ANSWER, result: { status: 'NOT_FOUND', licence: LICENCE, checkedAt: 'c' }, holderCheck: null }, 'v3', new Date(0));
    expect(notFound).toMatchObject({ status: 'NOT_FOUND', licence: null, nameCheck: null, dateOfBirthCheck: null });
  });
});

describe('answerFingerprint', () => {
  const found = { ...ANSWER, result: { status: 'FOUND' as const, licence: LICENCE, checkedAt: '2026-11-22T10:00:00.000Z' } };

  it('is the same for the same answer from another source, request or key', () => {
    expect(answerFingerprint({ ...found, source: 'register', requestId: 'r2', idempotencyKey: 'other' })).toBe(answerFingerprint(found));
  });

  it('differs once the status, the licence, checkedAt or the holder outcome differs', () => {
    const changed = [
      { ...found, result: { ...found.result, licence: { ...LICENCE, status: 'Suspended' } } },
      { ...found, result: { ...found.result, checkedAt: '2026-11-22T10:00:01.000Z' } },
      { ...found, result: { ...found.result, status: 'NOT_FOUND' as const } },
      { ...found, holderCheck: { name: 'MATCH' as const, dateOfBirth: 'CONFIRMED' as const } },
      { ...found, holderCheck: { name: 'MATCH' as const, dateOfBirth: 'NOT_CHECKED' as const } },
    ].map(answerFingerprint);
    expect(new Set([answerFingerprint(found), ...changed]).size).toBe(6);
  });
});

describe('completeRecord', () => {
  it("records a member's console answer with the member, and no key", () => {
    const record = recordOf(
      { ...ANSWER, keyId: null, memberId: 'm1', channel: 'console', result: { status: 'NOT_FOUND', licence: null, checkedAt: 'c' } },
      'v2',
      new Date('2026-11-22T10:00:01.000Z'),
    );
    expect([record.keyId, record.memberId]).toEqual([null, 'm1']);
  });

  it('gives a record stored before members every field, in order, memberId null', () => {
    const stored = recordOf({ ...ANSWER, result: { status: 'NOT_FOUND', licence: null, checkedAt: 'c' } }, 'v3', new Date(0));
    const { memberId: _, ...older } = stored;
    const completed = completeRecord(older);
    expect(Object.keys(completed)).toEqual([...RECORD_FIELDS]);
    expect(completed).toEqual(stored);
  });
});
