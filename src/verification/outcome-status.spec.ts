import type { RegisterLicence } from '@lvs/register';
import { SANDBOX_LICENCES } from '@lvs/test-register';
import { FinalResult, toFinalResult } from '../lookups/lookup-outcome';
import { verificationAnswer } from './outcome-status';

const LICENCE: RegisterLicence = SANDBOX_LICENCES.active;

const CHECKED_AT = new Date('2026-04-01T09:15:30.123Z');
const CHECKED_AT_ISO = '2026-04-01T09:15:30.123Z';

describe('verificationAnswer', () => {
  it('answers FOUND with 200 and the licence', () => {
    const result: FinalResult = { status: 'FOUND', licence: LICENCE, checkedAt: CHECKED_AT_ISO };
    expect(verificationAnswer(result)).toEqual({
      httpStatus: 200,
      body: {
        status: 'FOUND',
        message: 'Licence found',
        licence: LICENCE,
        checkedAt: CHECKED_AT_ISO,
      },
    });
  });

  it('answers NOT_FOUND with 404 and licence null', () => {
    expect(verificationAnswer({ status: 'NOT_FOUND', licence: null, checkedAt: CHECKED_AT_ISO })).toEqual({
      httpStatus: 404,
      body: {
        status: 'NOT_FOUND',
        message: 'No licence matches the number',
        licence: null,
        checkedAt: CHECKED_AT_ISO,
      },
    });
  });

  it('answers TOO_MANY_RESULTS with 409 and licence null', () => {
    expect(verificationAnswer({ status: 'TOO_MANY_RESULTS', licence: null, checkedAt: CHECKED_AT_ISO })).toEqual({
      httpStatus: 409,
      body: {
        status: 'TOO_MANY_RESULTS',
        message: 'Several licences match the number; the register data needs checking',
        licence: null,
        checkedAt: CHECKED_AT_ISO,
      },
    });
  });

  it('answers PENDING with 202, licence null and checkedAt null', () => {
    expect(verificationAnswer('PENDING')).toEqual({
      httpStatus: 202,
      body: {
        status: 'PENDING',
        message: 'Verification is still in progress; retry with the same Idempotency-Key',
        licence: null,
        checkedAt: null,
      },
    });
  });

  it('never shows a licence for NOT_FOUND, even if the result carries one', () => {
    expect(verificationAnswer({ status: 'NOT_FOUND', licence: LICENCE, checkedAt: CHECKED_AT_ISO }).body.licence).toBeNull();
  });

  it('never shows a licence for TOO_MANY_RESULTS, even if the result carries one', () => {
    expect(verificationAnswer({ status: 'TOO_MANY_RESULTS', licence: LICENCE, checkedAt: CHECKED_AT_ISO }).body.licence).toBeNull();
  });

  it('gives a body with exactly status, message, licence and checkedAt', () => {
    expect(Object.keys(verificationAnswer('PENDING').body).sort()).toEqual(['checkedAt', 'licence', 'message', 'status']);
  });

  it("adds a final answer's verificationId after its other fields", () => {
    const answer = verificationAnswer({ status: 'NOT_FOUND', licence: null, checkedAt: CHECKED_AT_ISO }, 'v-1');
    expect(Object.keys(answer.body)).toEqual(['status', 'message', 'licence', 'checkedAt', 'verificationId']);
    expect(answer.body.verificationId).toBe('v-1');
  });

  it('round-trips a found lookup outcome to 200 with the licence', () => {
    const answer = verificationAnswer(toFinalResult({ kind: 'found', licence: LICENCE }, CHECKED_AT));
    expect([answer.httpStatus, answer.body.status, answer.body.licence]).toEqual([200, 'FOUND', LICENCE]);
  });
});
