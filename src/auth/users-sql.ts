import type { EntityManager } from 'typeorm';
import { monthlyQuotaOf, servedUser } from './served-user';

/*
 * What other modules may say in SQL about auth's users table, for statements that must read it in one go with
 * their own tables (a claim that serves only served users, a count under the user's cap). Anything else they ask
 * auth's services.
 */

/** The settings TEST_MODE_ENABLED and TEST_MODE_QUOTA, which decide whether test sides are served and their quota. */
export interface TestModeSettings {
  testModeEnabled: boolean;
  testModeQuota: number;
}

/**
 * The users the service works for (servedUser), as a relation `alias` with the columns id and monthly_quota (a test
 * side's: TEST_MODE_QUOTA).
 */
export function servedUsers(alias: string, { testModeEnabled, testModeQuota }: TestModeSettings): string {
  return `(SELECT served.id, ${monthlyQuotaOf('served', testModeQuota)} AS monthly_quota FROM users served
           WHERE ${servedUser('served', testModeEnabled)}) ${alias}`;
}

/** Whether the user of id `userId` (an SQL expression) is one the service works for. */
export function isServedUser(userId: string, testModeEnabled: boolean): string {
  return `EXISTS (SELECT 1 FROM users served WHERE served.id = ${userId} AND ${servedUser('served', testModeEnabled)})`;
}

/** The mode ('live' or 'test') of the user of id `userId` (an SQL expression): which side owns what that user has. */
export function userMode(userId: string): string {
  return `(SELECT moded.mode FROM users moded WHERE moded.id = ${userId})`;
}

/** The name of the user of id `userId` (an SQL expression), null when there is none. */
export function userName(userId: string): string {
  return `(SELECT named.name FROM users named WHERE named.id = ${userId})`;
}

/** Whether the operator disabled the user of id `userId` (an SQL expression). */
export function isDisabledUser(userId: string): string {
  return `EXISTS (SELECT 1 FROM users disabled WHERE disabled.id = ${userId} AND disabled.disabled_at IS NOT NULL)`;
}

/** The user's own watchlist cap (keys set-watch-limit), null for the default; `userId` is an SQL expression. */
export function userWatchLimit(userId: string): string {
  return `(SELECT watch_limit FROM users WHERE id = ${userId})`;
}

/**
 * Locks the user's row in the caller's transaction, so that the user's additions of one kind take turns. NO KEY
 * UPDATE lets rows that merely reference the user (charges, a successor's entry) go on without waiting for it.
 */
export async function lockUser(manager: EntityManager, userId: string, strength: 'UPDATE' | 'NO KEY UPDATE'): Promise<void> {
  await manager.query(`SELECT 1 FROM users WHERE id = $1 FOR ${strength}`, [userId]);
}

/**
 * The partners (live users) as a relation `alias` with their operator settings: id, name, monthly_quota,
 * rate_limit_per_second, watch_limit, live_lookup_limit, disabled_at, created_at, and test_side (the id of its test
 * side, or null).
 */
export function partners(alias: string): string {
  return `(SELECT p.id, p.name, p.monthly_quota, p.rate_limit_per_second, p.watch_limit, p.live_lookup_limit, p.disabled_at, p.created_at,
                  (SELECT t.id FROM users t WHERE t.live_user_id = p.id) AS test_side
             FROM users p WHERE p.mode = 'live') ${alias}`;
}

/** The keys as a relation `alias`: id, user_id, name, key_prefix, role, created_at, last_used_at, expires_at, revoked_at, created_by_key_id. */
export function apiKeyRows(alias: string): string {
  return `(SELECT id, user_id, name, key_prefix, role, created_at, last_used_at, expires_at, revoked_at, created_by_key_id FROM api_keys) ${alias}`;
}
