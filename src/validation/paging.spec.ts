import { BatchesQuery, BatchItemsQuery } from '../batches/dto/batch-query.dto';
import { EventsQuery } from '../events/dto/events-query.dto';
import { RequestValidationPipe } from './request-validation.pipe';
import { WatchlistQueryDto } from '../watchlist/dto/watchlist-query.dto';
import { pageRequest, readNewestFirstCursor, writeNewestFirstCursor } from './paging';

const ID = '0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b';
const pipe = new RequestValidationPipe();
const read = (metatype: new () => object, query: Record<string, unknown>) => pipe.transform(query, { type: 'query', metatype });
const refusal = (message: string) => expect.objectContaining({ code: 'VALIDATION_ERROR', publicMessage: message });

describe.each([
  ['a batch’s items', BatchItemsQuery, 1000, 1000, 'limit must be an integer from 1 to 1000'],
  ['the batches', BatchesQuery, 20, 100, 'limit must be an integer from 1 to 100'],
  ['the watchlist', WatchlistQueryDto, 100, 1000, 'limit must be an integer from 1 to 1000'],
  ['the events', EventsQuery, 100, 1000, 'limit must be an integer from 1 to 1000'],
])('the page size of %s', (_list, metatype, fallback, max, message) => {
  it(`defaults to ${fallback} and takes 1 to ${max}`, async () => {
    await expect(read(metatype, {})).resolves.toMatchObject({ limit: fallback });
    await expect(read(metatype, { limit: '1' })).resolves.toMatchObject({ limit: 1 });
    await expect(read(metatype, { limit: String(max) })).resolves.toMatchObject({ limit: max });
  });

  it.each(['0', String(max + 1), '-1', '1.5', '1e2', ' 5', 'ten', '', ['1', '2']])('refuses %j with the list’s own text', async (limit) => {
    await expect(read(metatype, { limit })).rejects.toEqual(refusal(message));
  });
});

describe('cursors', () => {
  it('decode to what each list pages from', async () => {
    const batchesCursor = writeNewestFirstCursor({ at: '2026-11-22T10:00:00.123Z', id: ID });
    expect(pageRequest(await (read(BatchItemsQuery, { limit: '2', cursor: '40' }) as Promise<BatchItemsQuery>))).toEqual({ limit: 2, after: 40 });
    expect(pageRequest(await (read(BatchesQuery, { cursor: batchesCursor }) as Promise<BatchesQuery>))).toEqual({
      limit: 20,
      after: { at: '2026-11-22T10:00:00.123Z', id: ID },
    });
    expect(pageRequest(await (read(BatchesQuery, {}) as Promise<BatchesQuery>))).toEqual({ limit: 20, after: null });
    await expect(read(WatchlistQueryDto, { cursor: '1011001544208079' })).resolves.toMatchObject({ cursor: '1011001544208079' });
    await expect(read(EventsQuery, { after: '0042' })).resolves.toEqual(Object.assign(new EventsQuery(), { after: '42' }));
    await expect(read(EventsQuery, {})).resolves.toMatchObject({ after: '0' });
  });

  it.each([
    [BatchItemsQuery, 'cursor', 'x', 'cursor is not valid'],
    [BatchItemsQuery, 'cursor', '12345', 'cursor is not valid'],
    [BatchesQuery, 'cursor', 'bogus', 'cursor is not valid'],
    [WatchlistQueryDto, 'cursor', '123', 'cursor is not valid'],
    [EventsQuery, 'after', '-1', 'after must be a cursor from a previous page'],
    [EventsQuery, 'after', ['1', '2'], 'after must be a cursor from a previous page'],
    [BatchesQuery, 'cursor', 'A'.repeat(201), 'cursor is not valid'],
    [EventsQuery, 'after', '1'.repeat(19), 'after must be a cursor from a previous page'],
  ])('refuses a %p %s of %j', async (metatype, name, cursor, message) => {
    await expect(read(metatype, { [name]: cursor })).rejects.toEqual(refusal(message));
  });

  it('refuse a bad limit before a bad cursor', async () => {
    await expect(read(BatchesQuery, { limit: '0', cursor: 'bogus' })).rejects.toEqual(refusal('limit must be an integer from 1 to 100'));
  });
});

describe('other query fields', () => {
  it('refuse a parameter the list does not take, with the list’s text', async () => {
    await expect(read(BatchesQuery, { page: '2' })).rejects.toEqual(refusal('Query may only contain limit and cursor'));
    await expect(read(EventsQuery, { cursor: '1' })).rejects.toEqual(refusal('Query may only contain after and limit'));
    await expect(read(WatchlistQueryDto, { sort: 'x' })).rejects.toEqual(refusal('Query may only contain limit, cursor, status and expiringWithinDays'));
  });

  it('read the watchlist’s filters', async () => {
    await expect(read(WatchlistQueryDto, { status: 'Revoked', expiringWithinDays: '30' })).resolves.toMatchObject({
      status: 'Revoked',
      expiringWithinDays: 30,
    });
    await expect(read(WatchlistQueryDto, { status: 'Act1ve' })).rejects.toEqual(
      refusal('status must be a licence status such as Active or Revoked, NOT_FOUND, TOO_MANY_RESULTS or UNCHECKED'),
    );
    await expect(read(WatchlistQueryDto, { expiringWithinDays: '3651' })).rejects.toEqual(refusal('expiringWithinDays must be an integer from 0 to 3650'));
  });
});

describe('readNewestFirstCursor', () => {
  it('reads back the cursor it wrote', () => {
    const cursor = writeNewestFirstCursor({ at: '2026-11-22T10:00:00.123Z', id: ID });
    expect(readNewestFirstCursor(cursor)).toEqual({ at: '2026-11-22T10:00:00.123Z', id: ID });
  });

  it('refuses a cursor it did not write', () => {
    expect(readNewestFirstCursor('bogus')).toBeNull();
    expect(readNewestFirstCursor(Buffer.from(`2026-11-22|not-a-uuid`).toString('base64url'))).toBeNull();
    expect(readNewestFirstCursor(Buffer.from(`2026-11-22|${ID}|x`).toString('base64url'))).toBeNull();
    expect(readNewestFirstCursor('x'.repeat(201))).toBeNull();
  });
});
