import { SANDBOX_LICENCES } from '@lvs/test-register';
import { verificationAnswer } from '../verification/outcome-status';
import { holderCheckAnswer, searchAnswer } from './holder-answers';

const CHECKED_AT = '2026-11-25T10:00:00.000Z';
const LICENCE = SANDBOX_LICENCES.renewedNew;
const CHECK = { name: 'MATCH', dateOfBirth: 'CONFIRMED' } as const;

describe('holderCheckAnswer', () => {
  it("is verify's FOUND answer with the holder check", () => {
    expect(holderCheckAnswer(verificationAnswer({ status: 'FOUND', licence: LICENCE, checkedAt: CHECKED_AT }, 'v-1'), CHECK)).toEqual({
      httpStatus: 200,
      body: { status: 'FOUND', message: 'Licence found', licence: LICENCE, checkedAt: CHECKED_AT, verificationId: 'v-1', holderCheck: CHECK },
    });
  });

  it.each([
    ['NOT_FOUND', 404],
    ['TOO_MANY_RESULTS', 409],
  ] as const)('answers %s with its status and holderCheck null', (status, httpStatus) => {
    const answer = holderCheckAnswer(verificationAnswer({ status, licence: null, checkedAt: CHECKED_AT }), CHECK);
    expect([answer.httpStatus, answer.body.status, answer.body.holderCheck]).toEqual([httpStatus, status, null]);
  });

  it("answers PENDING with verify's 202 body and holderCheck null", () => {
    expect(holderCheckAnswer(verificationAnswer('PENDING'), null)).toEqual({
      httpStatus: 202,
      body: { ...verificationAnswer('PENDING').body, holderCheck: null },
    });
  });
});

describe('searchAnswer', () => {
  it('answers FOUND with 200 and every licence', () => {
    const licences = [SANDBOX_LICENCES.renewedOld, LICENCE];
    expect(searchAnswer({ status: 'FOUND', licences, checkedAt: CHECKED_AT }, null)).toEqual({
      httpStatus: 200,
      body: { status: 'FOUND', message: 'Licences found', licences, checkedAt: CHECKED_AT, dateOfBirthApplied: null },
    });
  });

  it('answers NOT_FOUND with 404 and no licences', () => {
    expect(searchAnswer({ status: 'NOT_FOUND', licences: [], checkedAt: CHECKED_AT }, true)).toEqual({
      httpStatus: 404,
      body: { status: 'NOT_FOUND', message: 'No licence matches the search', licences: [], checkedAt: CHECKED_AT, dateOfBirthApplied: true },
    });
  });

  it('answers PENDING with 202, no licences and checkedAt null', () => {
    expect(searchAnswer('PENDING', false)).toEqual({
      httpStatus: 202,
      body: {
        status: 'PENDING',
        message: 'Search is still in progress; retry with the same Idempotency-Key',
        licences: [],
        checkedAt: null,
        dateOfBirthApplied: false,
      },
    });
  });

  it('throws TOO_MANY_RESULTS (409) for a search too broad to list', () => {
    expect(() => searchAnswer({ status: 'TOO_MANY_RESULTS', licences: [], checkedAt: CHECKED_AT }, null)).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_RESULTS', status: 409 }),
    );
  });
});
