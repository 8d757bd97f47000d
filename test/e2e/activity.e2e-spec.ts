import { userInfo } from 'node:os';
import { ActivityLog, OPERATOR_ORIGIN } from '../../src/activity/activity-log';
import { request } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';

interface Event {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string | null };
  action: string;
  target: { type: string; id: string };
  clientAddress: string | null;
  userAgent: string | null;
  changes: Record<string, { old: unknown; new: unknown }>;
  hash: string;
  previousHash: string;
}

const AGENT = 'activity-spec/1.0';

/**
 * The activity log on the real app and the real admin command: each change is logged with its actor, the log pages
 * newest first with filters, and `admin activity verify` recomputes the hash chain, naming the first event changed
 * behind the service's back, and still holds after retention pruned the oldest events.
 */
describe('activity log', () => {
  let t: TestApp;
  let userId: string;
  let adminKey: string;
  let adminKeyId: string;
  let developerKeyId: string;
  let complianceKeyId: string;
  let webhookId: string;

  const call = (key: string, method: string, path: string, body?: object) =>
    request(t.baseUrl, method, path, { headers: { 'x-api-key': key, 'user-agent': AGENT }, body });
  const activity = async (query = ''): Promise<{ events: Event[]; nextCursor: string | null }> => {
    const response = await call(adminKey, 'GET', `/v1/activity${query}`);
    expect(response.status).toBe(200);
    return response.body as { events: Event[]; nextCursor: string | null };
  };
  const verify = () => runAdminCli(t.env, 'activity', 'verify', '--user', userId);

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const root = await t.createKey({ name: 'root' });
    ({ userId, key: adminKey, keyId: adminKeyId } = root);

    const developer = await call(adminKey, 'POST', '/v1/keys', { name: 'integration', role: 'developer' });
    expect(developer.status).toBe(201);
    developerKeyId = (developer.body as { id: string }).id;
    const developerKey = (developer.body as { key: string }).key;
    const compliance = await call(adminKey, 'POST', '/v1/keys', { name: 'rosters', role: 'compliance' });
    complianceKeyId = (compliance.body as { id: string }).id;
    const complianceKey = (compliance.body as { key: string }).key;

    const webhook = await call(developerKey, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(webhook.status).toBe(201);
    webhookId = (webhook.body as { id: string }).id;
    // Refused changes leave no event: an empty body, and a key whose role may not change webhooks.
    expect((await call(developerKey, 'PATCH', `/v1/webhooks/${webhookId}`, {})).status).toBe(400);
    expect((await call(complianceKey, 'PATCH', `/v1/webhooks/${webhookId}`, { url: 'http://127.0.0.1:9/stolen' })).status).toBe(403);
    const changed = await call(developerKey, 'PATCH', `/v1/webhooks/${webhookId}`, { url: 'http://127.0.0.1:9/hook?token=t0k3n', events: ['ping'] });
    expect(changed.status).toBe(200);
    expect((await call(developerKey, 'POST', `/v1/webhooks/${webhookId}/rotate-secret`)).status).toBe(200);
    expect((await call(developerKey, 'DELETE', `/v1/webhooks/${webhookId}`)).status).toBe(204);
    const imported = await call(complianceKey, 'POST', '/v1/watchlist:batchAdd', {
      items: [{ licenceNumber: '1011001544208079' }, { licenceNumber: '1011001544208080' }],
    });
    expect([imported.status, imported.body]).toEqual([200, { added: 2, updated: 0 }]);
    expect((await call(adminKey, 'DELETE', `/v1/keys/${developerKeyId}`)).status).toBe(204);

    for (const args of [
      ['set-quota', userId, '50'],
      ['set-rate-limit', userId, '7'],
      ['disable-user', userId],
      ['enable-user', userId],
    ]) {
      expect((await runAdminCli(t.env, ...args)).status).toBe(0);
    }
  }, 60_000);
  afterAll(() => t.close());

  it('holds each change with its actor, target, origin and changed fields, newest first', async () => {
    const { events, nextCursor } = await activity();
    expect(nextCursor).toBeNull();
    const key = (id: string) => ({ type: 'key', id });
    const operator = { type: 'operator', id: null };
    // The admin command's changes are the operating-system user's who ran it.
    const cli = { type: 'cli', id: userInfo().username };
    const account = { type: 'account', id: userId };
    expect(events.map(({ action, actor, target }) => [action, actor, target.type === 'webhook' ? 'webhook' : target])).toEqual(
      [
        ['key.created', operator, key(adminKeyId)],
        ['key.created', key(adminKeyId), key(developerKeyId)],
        ['key.created', key(adminKeyId), key(complianceKeyId)],
        ['webhook.created', key(developerKeyId), 'webhook'],
        ['webhook.updated', key(developerKeyId), 'webhook'],
        ['webhook.secret_rotated', key(developerKeyId), 'webhook'],
        ['webhook.deleted', key(developerKeyId), 'webhook'],
        ['watchlist.imported', key(complianceKeyId), { type: 'watchlist', id: userId }],
        ['key.revoked', key(adminKeyId), key(developerKeyId)],
        ['account.quota_changed', cli, account],
        ['account.limits_changed', cli, account],
        ['account.disabled', cli, account],
        ['account.enabled', cli, account],
      ].reverse(),
    );
    const byAction = (action: string) => events.find((event) => event.action === action)!;
    expect(byAction('key.revoked')).toMatchObject({ clientAddress: '127.0.0.1', userAgent: AGENT, changes: {} });
    expect(byAction('account.quota_changed')).toMatchObject({ clientAddress: null, userAgent: null, changes: { monthlyQuota: { old: null, new: 50 } } });
    expect(byAction('account.limits_changed').changes).toEqual({ rateLimitPerSecond: { old: null, new: 7 } });
    expect(byAction('account.disabled').changes).toEqual({ disabledAt: { old: null, new: expect.stringMatching(/^\d{4}-/) } });
    expect(byAction('account.enabled').changes).toEqual({ disabledAt: { old: byAction('account.disabled').changes.disabledAt.new, new: null } });
    expect(byAction('watchlist.imported').changes).toEqual({ added: { old: null, new: 2 }, updated: { old: null, new: 0 } });
    expect(byAction('webhook.created')).toMatchObject({
      target: { type: 'webhook', id: webhookId },
      changes: { url: { old: null, new: 'http://127.0.0.1:9/hook' }, events: { old: null, new: expect.arrayContaining(['ping']) } },
    });
    // The changed fields with their values before and after; the URL in full, as webhook.created records it.
    expect(byAction('webhook.updated')).toMatchObject({
      actor: key(developerKeyId),
      target: { type: 'webhook', id: webhookId },
      clientAddress: '127.0.0.1',
      userAgent: AGENT,
      changes: {
        url: { old: 'http://127.0.0.1:9/hook', new: 'http://127.0.0.1:9/hook?token=t0k3n' },
        events: { old: byAction('webhook.created').changes.events.new, new: ['ping'] },
      },
    });
    expect(Object.keys(byAction('webhook.updated').changes)).toEqual(['url', 'events']);
    expect(events.find((event) => event.target.id === developerKeyId && event.action === 'key.created')!.changes).toEqual({
      name: { old: null, new: 'integration' },
      mode: { old: null, new: 'live' },
      role: { old: null, new: 'developer' },
    });
    // Never a secret: the webhook's events hold its URL and the rotation's overlap, no signing secret.
    const webhookEvents = JSON.stringify(events.filter((event) => event.action.startsWith('webhook.')));
    expect(webhookEvents).not.toMatch(/whsec_|secret"/);
    // One chain, newest first: each event carries the hash of the one below it.
    for (const [index, event] of events.slice(0, -1).entries()) expect(event.previousHash).toBe(events[index + 1].hash);
    expect(events.at(-1)!.previousHash).toBe('0'.repeat(64));
  });

  it('filters by action, actor and time, and pages with the cursor', async () => {
    expect((await activity('?action=key.created')).events.map((event) => event.target.id)).toEqual([complianceKeyId, developerKeyId, adminKeyId]);
    expect((await activity('?actorType=operator')).events).toHaveLength(1);
    expect((await activity('?actorType=cli')).events).toHaveLength(4);
    expect((await activity(`?actorId=${developerKeyId}`)).events.map((event) => event.action)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    const all = (await activity()).events;
    const from = all[3].occurredAt;
    expect((await activity(`?from=${from}`)).events.every((event) => event.occurredAt >= from)).toBe(true);
    expect((await activity(`?to=${all.at(-1)!.occurredAt}`)).events).toEqual([]);
    const paged: Event[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await activity(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.events);
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(all);
    const bad = await call(adminKey, 'GET', '/v1/activity?action=key.stolen');
    expect([bad.status, bad.body]).toEqual([
      400,
      { code: 'VALIDATION_ERROR', message: 'action must be one of the activity log actions, such as key.created' },
    ]);
  });

  it('names the first event whose stored bytes were changed, and holds again once they are back', async () => {
    const intact = await verify();
    expect([intact.status, JSON.parse(intact.stdout)]).toEqual([0, { userId, events: 13, intact: true }]);
    const { events } = await activity();
    const target = events.find((event) => event.action === 'key.revoked')!;
    const later = events.find((event) => event.action === 'account.enabled')!;
    // One byte: the User-Agent's last character; and a later event changed too, to show that the first is named.
    await t.db.query(`UPDATE activity_events SET user_agent = 'activity-spec/1.1' WHERE id = $1`, [target.id]);
    await t.db.query(`UPDATE activity_events SET changes = '{}' WHERE id = $1`, [later.id]);
    const broken = await verify();
    expect(broken.status).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr.trim()).toBe(`The activity log of user ${userId} is broken at event ${target.id} (seq 9): its content does not match its hash`);
    await t.db.query(`UPDATE activity_events SET user_agent = $2 WHERE id = $1`, [target.id, AGENT]);
    await t.db.query(`UPDATE activity_events SET changes = $2 WHERE id = $1`, [later.id, JSON.stringify(later.changes)]);
    expect((await verify()).status).toBe(0);

    // The newest event deleted: the chain's head tells.
    await t.db.query('DELETE FROM activity_events WHERE id = $1', [later.id]);
    const cut = await verify();
    expect([cut.status, cut.stderr.trim()]).toEqual([1, `The activity log of user ${userId} is broken after event seq 12: the newest events are missing`]);
  });

  it('keeps the chain verifiable from the oldest event kept after retention, and appends concurrently in one chain', async () => {
    const other = await t.createKey({ name: 'other' });
    const log = t.app.get(ActivityLog);
    const entry = { userId: other.userId, action: 'account.quota_changed' as const, target: { type: 'account', id: other.userId } };
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => log.append(OPERATOR_ORIGIN, { ...entry, changes: { monthlyQuota: { old: index, new: index + 1 } } })),
    );
    const { rows } = await t.db.query<{ seq: number; occurred_at: Date }>(
      'SELECT seq::int AS seq, occurred_at FROM activity_events WHERE user_id = $1 ORDER BY seq',
      [other.userId],
    );
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 31 }, (_, index) => index + 1));
    const check = () => runAdminCli(t.env, 'activity', 'verify', '--user', other.userId);
    expect(JSON.parse((await check()).stdout)).toEqual({ userId: other.userId, events: 31, intact: true });

    // Retention's cut at the 11th event's time (each event is later than the one before): the first 10 go (and the
    // other user's, all older), the rest stay whole.
    expect(await log.deleteBefore(rows[10].occurred_at)).toBeGreaterThanOrEqual(10);
    const kept = await t.db.query<{ seq: number }>('SELECT seq::int AS seq FROM activity_events WHERE user_id = $1 ORDER BY seq', [other.userId]);
    expect(kept.rows.map((row) => row.seq)).toEqual(Array.from({ length: 21 }, (_, index) => index + 11));
    const after = await check();
    expect([after.status, JSON.parse(after.stdout)]).toEqual([0, { userId: other.userId, events: 21, intact: true }]);
  });
});
