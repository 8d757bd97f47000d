import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiKey } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';
import { cappedExpiry } from './key-expiry';
import { KeyChanges } from './key-changes';
import { KeyMode } from './key-mode';
import { User } from './user.entity';

export interface CreatedKey {
  key: string;
  keyId: string;
  /** the user the key belongs to: for a test key, the test side */
  userId: string;
  mode: KeyMode;
  /** a test key's live user, the one set-quota, disable-user and delete-user take; absent for a live key */
  liveUserId?: string;
  name: string;
  /** null for an unlimited plan; a test key's is TEST_MODE_QUOTA */
  quota: number | null;
  expiresAt: string | null;
}

export interface KeyListing {
  keyId: string;
  userId: string;
  mode: KeyMode;
  name: string;
  prefix: string;
  quota: number | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The key that issued this one through the API; null for a key the operator issued. */
  createdByKeyId: string | null;
}

/** A key as its own user sees it (GET /v1/keys). */
export interface UserKey {
  id: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  /** The key that issued this one through the API; null for a key the operator issued. */
  createdBy: string | null;
  /** Whether the calling key may revoke this one: it is the calling key or descends from it. */
  revocable: boolean;
}

export const MAX_ACTIVE_KEYS_PER_USER = 10;

export class UnknownUserError extends Error {}

/** A test side was named where only a live user may be (a test side has no test side of its own). */
export class TestSideError extends Error {}

/** The user already holds MAX_ACTIVE_KEYS_PER_USER keys that are neither revoked nor expired. */
export class KeyLimitError extends Error {}

/** The expiry asked for a new key is not in the future. */
export class PastExpiryError extends Error {}

interface UserKeyRow {
  id: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  createdBy: string | null;
  revocable: boolean;
}

function userKey(row: UserKeyRow): UserKey {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/**
 * `sides`: the users whose keys the keys of user $1 see: a live user and its test side, or a test side alone (no row
 * names a test side as its live user). `lineage`: the ids of key $2 and of every key it issued, directly or through
 * the keys it issued (all of `sides`); the keys this key may revoke.
 */
const LINEAGE = `WITH RECURSIVE sides AS (
    SELECT id FROM users WHERE id = $1 OR live_user_id = $1
  ),
  lineage AS (
    SELECT id FROM api_keys WHERE id = $2 AND user_id = $1
    UNION
    SELECT child.id FROM api_keys child JOIN lineage ON child.created_by_key_id = lineage.id WHERE child.user_id IN (SELECT id FROM sides)
  )`;

/**
 * The test side of live user $1, made on first use: ON CONFLICT on its unique live_user_id makes concurrent first uses
 * agree on one row (the loser waits for the winner's commit, then reads its row). UnknownUserError when there is no
 * such user, TestSideError when $1 is itself a test side.
 */
async function testSideOf(manager: EntityManager, liveUserId: string): Promise<string> {
  const [live] = await manager.query<{ mode: KeyMode }[]>('SELECT mode FROM users WHERE id = $1', [liveUserId]);
  if (!live) throw new UnknownUserError(`No user ${liveUserId}`);
  if (live.mode === 'test') throw new TestSideError(`User ${liveUserId} is a test side: give its live user`);
  const inserted = await manager.query<{ id: string }[]>(
    `INSERT INTO users (name, mode, live_user_id) SELECT name, 'test', id FROM users WHERE id = $1
     ON CONFLICT (live_user_id) DO NOTHING RETURNING id`,
    [liveUserId],
  );
  if (inserted.length > 0) return inserted[0].id;
  const [existing] = await manager.query<{ id: string }[]>('SELECT id FROM users WHERE live_user_id = $1', [liveUserId]);
  if (!existing) throw new UnknownUserError(`No user ${liveUserId}`); // deleted meanwhile
  return existing.id;
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly keyChanges: KeyChanges,
  ) {}

  /**
   * Issues a key, for a new user (with the given plan) or for an existing one. A test key (`testModeQuota` given)
   * goes to the user's test side, made in the same transaction on first use; a new user is then made live, with its
   * test side, and only the test key is issued.
   */
  async createKey(options: {
    name: string;
    quota?: number | null;
    expiresAt?: Date | null;
    userId?: string;
    testModeQuota?: number;
  }): Promise<CreatedKey> {
    const mode: KeyMode = options.testModeQuota === undefined ? 'live' : 'test';
    const created = await this.keys.manager.transaction(async (manager) => {
      let user: User | null;
      if (options.userId) {
        user = await manager.findOneBy(User, { id: options.userId });
        if (!user) throw new UnknownUserError(`No user ${options.userId}`);
      } else {
        user = await manager.save(manager.create(User, { name: options.name, monthlyQuota: options.quota ?? null }));
      }
      const keyUserId = mode === 'test' ? await testSideOf(manager, user.id) : user.id;
      const key = generateApiKey(mode);
      const saved = await manager.save(
        manager.create(ApiKey, {
          userId: keyUserId,
          name: options.name,
          keyHash: hashApiKey(key),
          keyPrefix: displayPrefix(key),
          expiresAt: options.expiresAt ?? null,
          revokedAt: null,
        }),
      );
      return {
        key,
        keyId: saved.id,
        userId: keyUserId,
        mode,
        ...(mode === 'test' ? { liveUserId: user.id } : {}),
        name: saved.name,
        quota: options.testModeQuota ?? user.monthlyQuota,
        expiresAt: saved.expiresAt?.toISOString() ?? null,
      };
    });
    // API processes that looked the new key up before it existed forget that it was unknown.
    await this.keyChanges.publish(created.userId);
    return created;
  }

  async listKeys(): Promise<KeyListing[]> {
    const keys = await this.keys.find({ relations: { user: true }, order: { createdAt: 'ASC' } });
    return keys.map((key) => ({
      keyId: key.id,
      userId: key.userId,
      mode: key.user?.mode ?? 'live',
      name: key.name,
      prefix: key.keyPrefix,
      quota: key.user?.monthlyQuota ?? null,
      createdAt: key.createdAt.toISOString(),
      expiresAt: key.expiresAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
      createdByKeyId: key.createdByKeyId,
    }));
  }

  /**
   * A user's keys that are not revoked (expired ones included, so their owner sees why they fail), oldest first,
   * each marked with its mode and whether `callerKeyId` may revoke it. A live user's list holds its test side's keys
   * too; a test side's only its own.
   */
  async userKeys(userId: string, callerKeyId: string): Promise<UserKey[]> {
    const rows = await this.keys.query<UserKeyRow[]>(
      `${LINEAGE}
       SELECT k.id, k.name, k.key_prefix AS prefix, u.mode, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt",
              k.expires_at AS "expiresAt", k.created_by_key_id AS "createdBy", k.id IN (SELECT id FROM lineage) AS revocable
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.user_id IN (SELECT id FROM sides) AND k.revoked_at IS NULL
        ORDER BY k.created_at, k.id`,
      [userId, callerKeyId],
    );
    return rows.map(userKey);
  }

  /**
   * Issues one more key of `mode` through the key `issuerKeyId` of user `userId`: to that user, or to the test side
   * of a live user (made on first use) for a test key; the caller has checked with issuedKeyMode that the issuer may.
   * Refused with KeyLimitError when the receiving user already holds the most active keys, and with PastExpiryError
   * for an expiry not in the future. The new key expires no later than its issuer. The receiving user's row is locked
   * first, so that concurrent requests count one after another and never pass the limit.
   */
  async createUserKey(
    userId: string,
    issuerKeyId: string,
    request: { name: string; expiresAt: Date | null; mode: KeyMode },
  ): Promise<UserKey & { key: string }> {
    return this.keys.manager.transaction(async (manager) => {
      const [issuer] = await manager.query<{ mode: KeyMode }[]>('SELECT mode FROM users WHERE id = $1', [userId]);
      const ownerId = request.mode === issuer?.mode ? userId : await testSideOf(manager, userId);
      await manager.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [ownerId]);
      const [{ active, issuerExpiresAt, now }] = await manager.query<{ active: number; issuerExpiresAt: Date | null; now: Date }[]>(
        `SELECT (SELECT count(*)::int FROM api_keys
                  WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS active,
                (SELECT expires_at FROM api_keys WHERE id = $2 AND user_id = $3) AS "issuerExpiresAt",
                now() AS now`,
        [ownerId, issuerKeyId, userId],
      );
      if (request.expiresAt !== null && request.expiresAt.getTime() <= now.getTime()) throw new PastExpiryError();
      if (active >= MAX_ACTIVE_KEYS_PER_USER) throw new KeyLimitError();
      const key = generateApiKey(request.mode);
      const saved = await manager.save(
        manager.create(ApiKey, {
          userId: ownerId,
          name: request.name,
          keyHash: hashApiKey(key),
          keyPrefix: displayPrefix(key),
          createdByKeyId: issuerKeyId,
          expiresAt: cappedExpiry(request.expiresAt, issuerExpiresAt),
          revokedAt: null,
        }),
      );
      const { id, name, keyPrefix: prefix, createdAt, lastUsedAt, expiresAt } = saved;
      const mode = request.mode;
      return { ...userKey({ id, name, prefix, mode, createdAt, lastUsedAt, expiresAt, createdBy: issuerKeyId, revocable: true }), key };
    });
  }

  /**
   * Revokes a key that `callerKeyId` of this user may revoke: itself or a key descended from it, its test side's
   * included for a live key. False otherwise (its issuer, a key the operator issued, another user's, one revoked
   * already, a live key asked by a test key), so that the caller cannot tell those apart from a key that does not exist.
   */
  async revokeUserKey(userId: string, callerKeyId: string, keyId: string): Promise<boolean> {
    const [rows] = await this.keys.query<[{ userId: string }[], number]>(
      `${LINEAGE}
       UPDATE api_keys SET revoked_at = now()
        WHERE id = $3 AND user_id IN (SELECT id FROM sides) AND revoked_at IS NULL AND id IN (SELECT id FROM lineage)
       RETURNING user_id AS "userId"`,
      [userId, callerKeyId, keyId],
    );
    if (rows.length === 0) return false;
    await this.keyChanges.publish(rows[0].userId);
    return true;
  }

  /** Returns false when there is no such key; revoking twice keeps the first time. */
  async revokeKey(keyId: string): Promise<boolean> {
    const [rows] = await this.keys.query<[{ userId: string }[], number]>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING user_id AS "userId"',
      [keyId],
    );
    if (rows.length === 0) return false;
    await this.keyChanges.publish(rows[0].userId);
    return true;
  }

  /** Returns false when there is no such user. null returns the user to the default rate. */
  async setRateLimit(userId: string, ratePerSecond: number | null): Promise<boolean> {
    const result = await this.users.update({ id: userId }, { rateLimitPerSecond: ratePerSecond });
    if ((result.affected ?? 0) === 0) return false;
    await this.keyChanges.publish(userId);
    return true;
  }

  /**
   * Returns false when there is no such user. null returns the user to WATCH_MAX_ENTRIES_PER_USER. Nothing to
   * announce: the watchlist reads the limit from the user's row whenever it adds entries.
   */
  async setWatchLimit(userId: string, watchLimit: number | null): Promise<boolean> {
    const result = await this.users.update({ id: userId }, { watchLimit });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Stops a user (`disabled`) or lets it go on; null when there is no such user. Every API process
   * refuses its keys from the announcement on; the worker reads the column where it re-checks and delivers.
   * Disabling twice keeps the first time.
   */
  async setDisabled(userId: string, disabled: boolean): Promise<{ disabledAt: string | null } | null> {
    const [rows] = await this.users.query<[{ disabledAt: Date | null }[], number]>(
      `UPDATE users SET disabled_at = CASE WHEN $2 THEN COALESCE(disabled_at, now()) END WHERE id = $1
       RETURNING disabled_at AS "disabledAt"`,
      [userId, disabled],
    );
    if (rows.length === 0) return null;
    await this.keyChanges.publish(userId);
    return { disabledAt: rows[0].disabledAt?.toISOString() ?? null };
  }

  /** Returns false when there is no such user. null sets an unlimited plan. */
  async setQuota(userId: string, quota: number | null): Promise<boolean> {
    const result = await this.users.update({ id: userId }, { monthlyQuota: quota });
    if ((result.affected ?? 0) === 0) return false;
    await this.keyChanges.publish(userId);
    return true;
  }
}
