import type { TestApp } from './test-app';

/** A user's test side and one of its test keys, with the live user it belongs to. */
export interface TestSide {
  key: string;
  userId: string;
  liveUserId: string;
}

/**
 * Makes a live user's test side (a users row, mode 'test', tied to it) and a key for it, straight in the test's
 * database, as the keys command's --test option does. A new live user is made unless one is named.
 */
export async function createTestSide(t: TestApp, options: { liveUserId?: string; quota?: number } = {}): Promise<TestSide> {
  const liveUserId = options.liveUserId ?? (await t.createKey({ quota: 10, name: 'live side' })).userId;
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (name, monthly_quota, mode, live_user_id) VALUES ('test side', $1, 'test', $2) RETURNING id`,
    [options.quota ?? 1000, liveUserId],
  );
  const { key } = await t.createKey({ userId: rows[0].id, name: 'test key' });
  return { key, userId: rows[0].id, liveUserId };
}
