import type { LookupOutcome, RegisterLicence } from '@lvs/register';
import { SANDBOX_LICENCES } from '@lvs/test-register';
import { cacheTtlSeconds, lookupFailureCode, toFinalResult, toNameSearchResult } from './lookup-outcome';

const LICENCE: RegisterLicence = SANDBOX_LICENCES.active;

const CHECKED_AT = new Date('2026-04-01T09:15:30.123Z');
const CHECKED_AT_ISO = '2026-04-01T09:15:30.123Z';

describe('toFinalResult', () => {
  it('maps a found outcome to FOUND with the licence and the ISO check time', () => {
    const outcome: LookupOutcome = { kind: 'found', licence: LICENCE };
    expect(toFinalResult(outcome, CHECKED_AT)).toEqual({
      status: 'FOUND',
      licence: LICENCE,
      checkedAt: CHECKED_AT_ISO,
    });
  });

  it('keeps the very licence object of a found outcome', () => {
    expect(toFinalResult({ kind: 'found', licence: LICENCE }, CHECKED_AT).licence).toBe(LICENCE);
  });

  it('maps not_found to NOT_FOUND with licence null', () => {
    expect(toFinalResult({ kind: 'not_found' }, CHECKED_AT)).toEqual({
      status: 'NOT_FOUND',
      licence: null,
      checkedAt: CHECKED_AT_ISO,
    });
  });

  it('maps too_many_results to TOO_MANY_RESULTS with licence null', () => {
    expect(toFinalResult({ kind: 'too_many_results' }, CHECKED_AT)).toEqual({
      status: 'TOO_MANY_RESULTS',
      licence: null,
      checkedAt: CHECKED_AT_ISO,
    });
  });

  it('writes checkedAt in UTC with milliseconds even at the epoch', () => {
    expect(toFinalResult({ kind: 'not_found' }, new Date(0)).checkedAt).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('cacheTtlSeconds', () => {
  const ttl = { found: 3600, notFound: 600 };

  it('uses the found TTL for FOUND', () => {
    expect(cacheTtlSeconds('FOUND', ttl)).toBe(3600);
  });

  it('uses the not-found TTL for NOT_FOUND', () => {
    expect(cacheTtlSeconds('NOT_FOUND', ttl)).toBe(600);
  });

  it('uses the not-found TTL for TOO_MANY_RESULTS', () => {
    expect(cacheTtlSeconds('TOO_MANY_RESULTS', ttl)).toBe(600);
  });
});

describe('lookupFailureCode', () => {
  it('passes SERVICE_UNAVAILABLE through', () => {
    expect(lookupFailureCode('SERVICE_UNAVAILABLE')).toBe('SERVICE_UNAVAILABLE');
  });

  it('passes PARSE_ERROR through', () => {
    expect(lookupFailureCode('PARSE_ERROR')).toBe('PARSE_ERROR');
  });

  it.each([
    ['undefined', undefined],
    ['INTERNAL_ERROR', 'INTERNAL_ERROR'],
    ['an unknown reason', 'something else'],
    ['an empty reason', ''],
    ['a lower-case known code', 'parse_error'],
    ['a code of our own that is not a lookup failure', 'QUOTA_EXCEEDED'],
  ])('maps %s to INTERNAL_ERROR', (_what, reason) => {
    expect(lookupFailureCode(reason)).toBe('INTERNAL_ERROR');
  });
});

describe('toNameSearchResult', () => {
  it('maps found licences to FOUND with every licence, in order', () => {
    const licences = [SANDBOX_LICENCES.renewedOld, SANDBOX_LICENCES.renewedNew];
    expect(toNameSearchResult({ kind: 'found', licences }, CHECKED_AT)).toEqual({ status: 'FOUND', licences, checkedAt: CHECKED_AT_ISO });
  });

  it.each([
    ['not_found', 'NOT_FOUND'],
    ['too_many_results', 'TOO_MANY_RESULTS'],
  ] as const)('maps %s to %s with no licences', (kind, status) => {
    expect(toNameSearchResult({ kind }, CHECKED_AT)).toEqual({ status, licences: [], checkedAt: CHECKED_AT_ISO });
  });
});
