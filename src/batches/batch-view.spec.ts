import { batchAnswer, BatchView, countsOf, isBatchId, itemResult, readItemsCursor, retryAfterSeconds } from './batch-view';

const ID = '0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b';

describe('itemResult', () => {
  it('keeps the licence of a FOUND result and drops it otherwise', () => {
    const licence = { licenceNumber: '1011001544208079' } as never;
    expect(itemResult({ state: 'completed', result: { status: 'FOUND', licence, checkedAt: 't' } })).toEqual({
      status: 'FOUND',
      errorCode: null,
      licence,
      checkedAt: 't',
    });
    expect(itemResult({ state: 'completed', result: { status: 'NOT_FOUND', licence: null, checkedAt: 't' } })).toEqual({
      status: 'NOT_FOUND',
      errorCode: null,
      licence: null,
      checkedAt: 't',
    });
  });

  it.each([
    ['SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
    ['PARSE_ERROR', 'PARSE_ERROR'],
    ['boom', 'INTERNAL_ERROR'],
    [undefined, 'INTERNAL_ERROR'],
  ])('maps a failed lookup (%s) to ERROR with %s', (reason, errorCode) => {
    expect(itemResult({ state: 'failed', reason })).toEqual({ status: 'ERROR', errorCode, licence: null, checkedAt: null });
  });
});

describe('countsOf', () => {
  it('gives every status, zero when absent, as numbers', () => {
    expect(
      countsOf([
        { status: 'FOUND', count: '3' },
        { status: 'ERROR', count: 1 },
      ]),
    ).toEqual({
      FOUND: 3,
      NOT_FOUND: 0,
      TOO_MANY_RESULTS: 0,
      PENDING: 0,
      ERROR: 1,
    });
  });
});

describe('isBatchId', () => {
  it('accepts a UUID only', () => {
    expect([isBatchId(ID), isBatchId(ID.toUpperCase()), isBatchId('x'), isBatchId(`${ID}0`)]).toEqual([true, true, false, false]);
  });
});

describe('readItemsCursor', () => {
  it('reads the index the previous page ended at', () => {
    expect([readItemsCursor('40'), readItemsCursor('0')]).toEqual([40, 0]);
  });

  it.each(['x', '-1', '12345', '1.5', ''])('refuses %j', (cursor) => {
    expect(readItemsCursor(cursor)).toBeNull();
  });
});

describe('retryAfterSeconds', () => {
  it('is the time the register needs for what is pending, from 1 to 60 s', () => {
    expect([retryAfterSeconds(0, 10), retryAfterSeconds(25, 10), retryAfterSeconds(1000, 10)]).toEqual([1, 3, 60]);
  });
});

describe('batchAnswer', () => {
  const view = (status: 'RUNNING' | 'COMPLETED', pending: number): BatchView => ({
    id: ID,
    status,
    createdAt: 't',
    completedAt: null,
    total: 10,
    counts: { FOUND: 0, NOT_FOUND: 10 - pending, TOO_MANY_RESULTS: 0, PENDING: pending, ERROR: 0 },
    mode: 'live',
    items: [],
    nextCursor: null,
  });

  it('answers a completed batch 200 without headers', () => {
    expect(batchAnswer(view('COMPLETED', 0), 10)).toEqual({ httpStatus: 200, headers: {} });
  });

  it('answers a running batch 202 with its Location and Retry-After', () => {
    expect(batchAnswer(view('RUNNING', 10), 5)).toEqual({ httpStatus: 202, headers: { Location: `/v1/batches/${ID}`, 'Retry-After': '2' } });
  });
});
