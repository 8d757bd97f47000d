import { VerificationsQuery } from '../verification-records/dto/verifications-query.dto';
import { ACTIVITY_ACTIONS } from '../activity/activity-chain';
import { ActivityQuery } from '../auth/dto/activity.dto';
import { activityPageFilters, historyFilters, holderFields, refusedActivity, refusedHistory, refusedVerify } from './form-pages';

const query = (fields: Partial<VerificationsQuery>) => Object.assign(new VerificationsQuery(), fields);

describe('holderFields', () => {
  it("shows the holder's fields trimmed, blank when absent or not text", () => {
    expect(holderFields({ firstName: ' Jane ', surname: undefined, dateOfBirth: ['1988-07-15'] })).toEqual({
      firstName: 'Jane',
      surname: '',
      dateOfBirth: '',
    });
  });
});

describe('refusedVerify', () => {
  it('shows the form as sent with the words, and no result', () => {
    expect(refusedVerify({ _csrf: 't', licenceNumber: ' 12 ', firstName: 'Jane', surname: '' }, 'Licence number must be 16 digits')).toEqual({
      outcome: {
        licenceNumber: '12',
        holder: { firstName: 'Jane', surname: '', dateOfBirth: '' },
        error: 'Licence number must be 16 digits',
        result: null,
        holderCheck: null,
        idempotencyKey: null,
      },
    });
  });
});

describe('historyFilters', () => {
  it('has nothing for a first visit, so the page reads as unfiltered', () => {
    expect(historyFilters(query({}))).toEqual({});
  });

  it('carries what the query sets, as text, the page size only when asked for', () => {
    const cursor = { at: '2026-11-01T10:00:00.000Z', id: '0b3f0c62-4a4b-4b8e-9f0e-1b2c3d4e5f60' };
    expect(historyFilters(query({ status: 'FOUND', from: '2026-11-01', limit: 5, cursor }))).toEqual({
      status: 'FOUND',
      from: '2026-11-01',
      limit: '5',
      cursor: Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url'),
    });
  });
});

describe('refusedHistory', () => {
  it('shows the filters as sent, no rows and the words', () => {
    expect(refusedHistory({ status: 'LOST', channel: '' }, 'status must be FOUND, NOT_FOUND or TOO_MANY_RESULTS')).toEqual({
      filters: { status: 'LOST', channel: '' },
      members: [],
      verifications: [],
      nextCursor: null,
      error: 'status must be FOUND, NOT_FOUND or TOO_MANY_RESULTS',
    });
  });
});

describe('activityPageFilters', () => {
  const activityQuery = (fields: Partial<ActivityQuery>) => Object.assign(new ActivityQuery(), fields);

  it('has nothing for a first visit, and carries what the query sets as text, the page size only when asked for', () => {
    expect(activityPageFilters(activityQuery({}))).toEqual({});
    const cursor = { at: '2026-11-28T10:04:11.532Z', id: '0b3f0c62-4a4b-4b8e-9f0e-1b2c3d4e5f60' };
    expect(activityPageFilters(activityQuery({ action: 'key.created', actorType: 'key', from: '2026-11-28', limit: 100, cursor }))).toEqual({
      action: 'key.created',
      actorType: 'key',
      from: '2026-11-28',
      cursor: Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url'),
    });
    expect(activityPageFilters(activityQuery({ limit: 2 }))).toEqual({ limit: '2' });
  });
});

describe('refusedActivity', () => {
  it('shows the filters as sent and the whole form, no rows and the words', () => {
    const refused = refusedActivity({ from: 'yesterday' }, 'from must be a date-time such as 2026-11-01T00:00:00Z');
    expect(refused).toMatchObject({ filters: { from: 'yesterday' }, actors: { members: [], keys: [] }, rows: [], nextCursor: null });
    expect([refused.error, refused.actions, refused.actorTypes.map(([type]) => type)]).toEqual([
      'from must be a date-time such as 2026-11-01T00:00:00Z',
      ACTIVITY_ACTIONS,
      ['member', 'key', 'operator', 'cli', 'system'],
    ]);
  });
});
