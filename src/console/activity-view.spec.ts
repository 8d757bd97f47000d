import type { ActivityEvent } from '../activity/activity-log';
import { ACTIVITY_CSV_COLUMNS, activityCsvCells, actorWords, changesWords, targetWords } from './activity-view';

const MEMBER_ID = '0b5c4d2e-8f1a-4c3b-9d7e-6a5f4e3d2c1b';
const KEY_ID = '5c1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a';
const NAMES = { members: new Map([[MEMBER_ID, 'Olivia Owner']]), keys: new Map([[KEY_ID, 'lvs_live_ab12cd']]) };
const NOBODY = { members: new Map<string, string>(), keys: new Map<string, string>() };

describe('actorWords', () => {
  it.each([
    [{ type: 'member' as const, id: MEMBER_ID }, 'Olivia Owner'],
    [{ type: 'key' as const, id: KEY_ID }, 'Key lvs_live_ab12cd…'],
    [{ type: 'operator' as const, id: MEMBER_ID }, 'The service’s operator'],
    [{ type: 'cli' as const, id: 'root' }, 'The operator’s admin command'],
    [{ type: 'cli' as const, id: null }, 'The operator’s admin command'],
    [{ type: 'system' as const, id: null }, 'The service itself'],
  ])('names %j "%s"', (actor, words) => {
    expect(actorWords(actor, NAMES)).toBe(words);
  });

  it('names a member or key the account no longer knows by its kind, never by its id', () => {
    expect(actorWords({ type: 'member', id: MEMBER_ID }, NOBODY)).toBe('A member');
    expect(actorWords({ type: 'key', id: KEY_ID }, NOBODY)).toBe('An API key');
    // An operator's id is never looked up among the account's own: a member of the same id would not be them.
    expect(actorWords({ type: 'operator', id: MEMBER_ID }, NAMES)).toBe('The service’s operator');
  });
});

describe('targetWords', () => {
  it.each([
    [{ type: 'member', id: MEMBER_ID }, 'Olivia Owner'],
    [{ type: 'key', id: KEY_ID }, 'Key lvs_live_ab12cd…'],
    [{ type: 'account', id: MEMBER_ID }, 'The account'],
    [{ type: 'watchlist', id: MEMBER_ID }, 'The watchlist'],
    [{ type: 'sso', id: MEMBER_ID }, 'Single sign-on'],
    [{ type: 'webhook', id: KEY_ID }, 'Webhook 5c1e2f3a…'],
    [{ type: 'member', id: KEY_ID }, 'Member 5c1e2f3a…'],
  ])('names %j "%s"', (target, words) => {
    expect(targetWords(target, NAMES)).toBe(words);
  });
});

describe('changesWords', () => {
  it('shows each field: new alone when it did not exist, old → new, old → none', () => {
    expect(changesWords({ name: { old: null, new: 'Payroll' }, role: { old: 'viewer', new: 'admin' }, factor: { old: 'passkey', new: null } })).toBe(
      'name: Payroll; role: viewer → admin; factor: passkey → none',
    );
  });

  it('lists arrays, writes numbers and objects as JSON, and is empty for no change', () => {
    expect(changesWords({ events: { old: null, new: ['licence.status_changed', 'batch.completed'] }, monthlyQuota: { old: 1, new: 5 } })).toBe(
      'events: licence.status_changed, batch.completed; monthlyQuota: 1 → 5',
    );
    expect(changesWords({ limits: { old: { rate: 2 }, new: { rate: 3 } } })).toBe('limits: {"rate":2} → {"rate":3}');
    expect(changesWords({})).toBe('');
  });

  it('cuts a value past 60 characters to 59 and an ellipsis', () => {
    const url = `https://hooks.example/${'a'.repeat(80)}`;
    expect(changesWords({ url: { old: null, new: url } })).toBe(`url: ${url.slice(0, 59)}…`);
    expect(changesWords({ url: { old: null, new: url.slice(0, 60) } })).toBe(`url: ${url.slice(0, 60)}`);
  });
});

describe('activityCsvCells', () => {
  const event: ActivityEvent = {
    id: '9a7f0000-0000-4000-8000-000000000001',
    occurredAt: '2026-11-28T10:04:11.532Z',
    actor: { type: 'key', id: KEY_ID },
    action: 'key.created',
    target: { type: 'key', id: '9a7f0000-0000-4000-8000-000000000002' },
    clientAddress: '203.0.113.9',
    userAgent: '=cmd|calc',
    changes: { name: { old: null, new: 'Payroll' } },
    hash: 'a'.repeat(64),
    previousHash: '0'.repeat(64),
  };

  it('gives one cell per column, changes as JSON, a formula-like User-Agent neutralised', () => {
    const cells = activityCsvCells(event, NAMES);
    expect(Object.fromEntries(ACTIVITY_CSV_COLUMNS.map((column, index) => [column, cells[index]]))).toEqual({
      id: event.id,
      occurredAt: event.occurredAt,
      actorType: 'key',
      actorId: KEY_ID,
      actorName: 'Key lvs_live_ab12cd…',
      action: 'key.created',
      targetType: 'key',
      targetId: event.target.id,
      clientAddress: '203.0.113.9',
      userAgent: "'=cmd|calc",
      changes: '{"name":{"old":null,"new":"Payroll"}}',
      hash: 'a'.repeat(64),
      previousHash: '0'.repeat(64),
    });
    expect(cells).toHaveLength(ACTIVITY_CSV_COLUMNS.length);
  });

  it('leaves the operator’s missing address and agent empty', () => {
    const cells = activityCsvCells({ ...event, actor: { type: 'operator', id: null }, clientAddress: null, userAgent: null }, NAMES);
    expect([cells[3], cells[4], cells[8], cells[9]]).toEqual(['', 'The service’s operator', '', '']);
  });
});
