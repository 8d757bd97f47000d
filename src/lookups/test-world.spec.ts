import { loadSandboxData, SANDBOX_NUMBERS, SandboxData } from '@lvs/test-register';
import {
  isCachedTestAnswer,
  MAGIC_NUMBERS,
  mayHoldBackTestAnswer,
  SLOW_ANSWER_MS,
  testAnswer,
  testAnswerDelayMs,
  TestWorld,
  testWorldLicences,
} from './test-world';

describe('the test register world', () => {
  let sandbox: SandboxData;
  let world: TestWorld;

  beforeAll(async () => {
    sandbox = await loadSandboxData();
    world = { sandbox, changed: new Map() };
  });

  const found = (licenceNumber: string) => {
    const answer = testAnswer(licenceNumber, world);
    if (answer.kind !== 'found') throw new Error(`${licenceNumber} answered ${answer.kind}`);
    return answer;
  };

  it.each([
    [MAGIC_NUMBERS.active, 'ACTIVE', 'Active', '1990-01-01'],
    [MAGIC_NUMBERS.expired, 'EXPIRED', 'Expired', '1990-01-01'],
    [MAGIC_NUMBERS.revoked, 'REVOKED', 'Revoked', '1990-01-01'],
    [MAGIC_NUMBERS.suspended, 'SUSPENDED', 'Suspended', '1990-01-01'],
    [MAGIC_NUMBERS.replaced, 'REPLACED', 'Replaced', '1985-05-05'],
    [MAGIC_NUMBERS.replacedSuccessor, 'REPLACED', 'Active', '1985-05-05'],
  ])('%s is FOUND: TEST %s, %s, born %s, at once', (licenceNumber, surname, status, dateOfBirth) => {
    expect(found(licenceNumber).licence).toMatchObject({ licenceNumber, firstName: 'TEST', surname, status, dateOfBirth });
    expect(testAnswerDelayMs(licenceNumber, world)).toBe(0);
  });

  it.each([
    [MAGIC_NUMBERS.notFound, 'not_found'],
    [MAGIC_NUMBERS.tooManyResults, 'too_many_results'],
    [MAGIC_NUMBERS.unavailable, 'unavailable'],
    [MAGIC_NUMBERS.unexpectedPage, 'unexpected_page'],
  ])('%s answers %s', (licenceNumber, kind) => {
    expect(testAnswer(licenceNumber, world)).toEqual({ kind });
  });

  it('answers the slow number after 8 s, and never caches it', () => {
    expect(found(MAGIC_NUMBERS.slow).licence).toMatchObject({ surname: 'PENDING', status: 'Active' });
    expect(testAnswerDelayMs(MAGIC_NUMBERS.slow, world)).toBe(SLOW_ANSWER_MS);
    expect(SLOW_ANSWER_MS).toBe(8000);
    expect(isCachedTestAnswer(MAGIC_NUMBERS.slow)).toBe(false);
    expect(isCachedTestAnswer(MAGIC_NUMBERS.active)).toBe(true);
  });

  it("answers the demo's slow numbers after 8 s, and a changed slow number at once", () => {
    expect(testAnswerDelayMs('1077123456789012', world)).toBe(8000);
    expect(testAnswer('1077123456789012', world)).toEqual({ kind: 'not_found' });
    expect(testAnswerDelayMs(SANDBOX_NUMBERS.active, world)).toBe(0);
    const changed: TestWorld = { sandbox, changed: new Map([[MAGIC_NUMBERS.slow, found(MAGIC_NUMBERS.slow).licence]]) };
    expect(testAnswerDelayMs(MAGIC_NUMBERS.slow, changed)).toBe(0);
  });

  it('may keep back only the slow numbers, so no other number needs the world to know it answers at once', () => {
    expect([MAGIC_NUMBERS.slow, '1077123456789012'].map(mayHoldBackTestAnswer)).toEqual([true, true]);
    expect([MAGIC_NUMBERS.unavailable, MAGIC_NUMBERS.unexpectedPage, MAGIC_NUMBERS.active, SANDBOX_NUMBERS.active].map(mayHoldBackTestAnswer)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("answers any other number as the demo's data set does, its faults as the register client would read them", () => {
    expect(found(SANDBOX_NUMBERS.active).licence).toMatchObject({ firstName: 'JANE', surname: 'DOE', status: 'Active' });
    expect(testAnswer(SANDBOX_NUMBERS.tooMany, world)).toEqual({ kind: 'too_many_results' });
    expect(testAnswer(SANDBOX_NUMBERS.twoCards, world)).toEqual({ kind: 'too_many_results' });
    expect(testAnswer(SANDBOX_NUMBERS.notFound, world)).toEqual({ kind: 'not_found' });
    for (const fault of [
      SANDBOX_NUMBERS.fault503,
      SANDBOX_NUMBERS.fault500,
      SANDBOX_NUMBERS.fault429,
      SANDBOX_NUMBERS.faultHang,
      SANDBOX_NUMBERS.faultReset,
    ]) {
      expect(testAnswer(fault, world)).toEqual({ kind: 'unavailable' });
    }
    for (const fault of [
      SANDBOX_NUMBERS.fault404,
      SANDBOX_NUMBERS.faultMaintenance,
      SANDBOX_NUMBERS.faultTruncated,
      SANDBOX_NUMBERS.faultOversize,
      SANDBOX_NUMBERS.faultRedirect,
    ]) {
      expect(testAnswer(fault, world)).toEqual({ kind: 'unexpected_page' });
    }
  });

  it('answers a changed number from its change, whatever it answered before, and lets the name search find it', () => {
    const changed = { ...found(MAGIC_NUMBERS.active).licence, status: 'Revoked' };
    const own: TestWorld = {
      sandbox,
      changed: new Map([
        [MAGIC_NUMBERS.active, changed],
        [MAGIC_NUMBERS.unavailable, { ...changed, licenceNumber: MAGIC_NUMBERS.unavailable }],
      ]),
    };
    expect(testAnswer(MAGIC_NUMBERS.active, own)).toEqual({ kind: 'found', licence: changed });
    expect(testAnswer(MAGIC_NUMBERS.unavailable, own)).toMatchObject({ kind: 'found' });
    const actives = testWorldLicences(own).filter((licence) => licence.surname === 'ACTIVE');
    expect(actives.map((licence) => [licence.licenceNumber, licence.status])).toEqual([
      [MAGIC_NUMBERS.active, 'Revoked'],
      [MAGIC_NUMBERS.unavailable, 'Revoked'],
    ]);
    expect(testAnswer(MAGIC_NUMBERS.active, world)).toMatchObject({ kind: 'found', licence: { status: 'Active' } });
  });
});
