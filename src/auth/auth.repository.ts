import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKey } from './api-key.entity';
import { KeyCaller } from './authenticated-user';
import type { KeyMode } from './key-mode';
import type { KeyRole } from './key-role';
import { User } from './user.entity';

/** A key as the authenticator loads it: its holder, and what decides whether it still works. */
export interface StoredKeyHolder extends KeyCaller {
  expiresAt: Date | null;
  rateLimitPerSecond: number | null;
  /** the key is not revoked, its user not disabled, and a test key's live user neither (test mode enabled) */
  live: boolean;
  liveUserId: string | null;
}

/** A live account as its members' console sessions see it (memberAccount). */
export interface MemberAccount {
  mode: 'live';
  /** the account's test side, which the console's Test mode switch makes on first use; null before */
  testUserId: string | null;
  monthlyQuota: number | null;
  rateLimitPerSecond: number | null;
  liveLookupLimit: number | null;
  disabled: boolean;
}

/** A key of a user's own list (GET /v1/keys), as stored. */
export interface UserKeyRow {
  id: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  role: KeyRole;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  createdBy: string | null;
  revocable: boolean;
}

/** What issuing a key through the API decides on: the receiving user's active keys, and the issuer's expiry. */
export interface IssueCounts {
  active: number;
  issuerExpiresAt: Date | null;
  now: Date;
}

/** The columns of a new api_keys row. */
export type NewKey = Pick<ApiKey, 'userId' | 'name' | 'keyHash' | 'keyPrefix' | 'expiresAt'> & Partial<Pick<ApiKey, 'createdByKeyId' | 'role'>>;

/** A user as a new key needs it. */
export type KeyUser = Pick<User, 'id' | 'monthlyQuota' | 'mode'>;

/** A key as its issuer is told of it. */
export type IssuedKey = Pick<ApiKey, 'id' | 'name' | 'keyPrefix' | 'role' | 'createdAt' | 'lastUsedAt' | 'expiresAt'>;

/** A key of the operator's list (keys list), with its user's mode and plan. */
export type ListedKey = Pick<ApiKey, 'id' | 'userId' | 'name' | 'keyPrefix' | 'role' | 'createdAt' | 'expiresAt' | 'revokedAt' | 'createdByKeyId'> &
  Pick<User, 'mode' | 'monthlyQuota'>;

/** The users columns of the settings the operator sets one at a time (keys set-quota, set-rate-limit, set-watch-limit, set-live-limit). */
const USER_SETTINGS = {
  monthlyQuota: 'monthly_quota',
  rateLimitPerSecond: 'rate_limit_per_second',
  watchLimit: 'watch_limit',
  liveLookupLimit: 'live_lookup_limit',
} as const;
export type UserSetting = keyof typeof USER_SETTINGS;

/**
 * `sides`: the users whose keys the keys of user $1 see: a live user and its test side, or a test side alone (no row
 * names a test side as its live user). `lineage`: the ids of key $2 and of every key it issued, directly or through
 * the keys it issued (all of `sides`); the keys this key may revoke. A key the operator issued reaches, besides, the
 * keys of `sides` whose issuer is revoked, and theirs: nobody else could revoke a key left behind by its issuer (one
 * issued before revocations reached descendants, or while its issuer was being revoked). With $2 null (a member of
 * the account, whose role the caller has checked), every key of `sides`.
 */
const LINEAGE = `WITH RECURSIVE sides AS (
    SELECT id FROM users WHERE id = $1 OR live_user_id = $1
  ),
  lineage AS (
    SELECT k.id FROM api_keys k
     WHERE (k.id = $2 AND k.user_id = $1)
        OR ($2::uuid IS NULL AND k.user_id IN (SELECT id FROM sides))
        OR (k.user_id IN (SELECT id FROM sides)
            AND EXISTS (SELECT 1 FROM api_keys issuer WHERE issuer.id = k.created_by_key_id AND issuer.revoked_at IS NOT NULL)
            AND EXISTS (SELECT 1 FROM api_keys caller WHERE caller.id = $2 AND caller.user_id = $1 AND caller.created_by_key_id IS NULL))
    UNION
    SELECT child.id FROM api_keys child JOIN lineage ON child.created_by_key_id = lineage.id WHERE child.user_id IN (SELECT id FROM sides)
  )`;

/** `descendants`: key $1 and every key it issued, directly or through the keys it issued, revoked or not. */
const DESCENDANTS = `WITH RECURSIVE descendants AS (
    SELECT id FROM api_keys WHERE id = $1
    UNION
    SELECT child.id FROM api_keys child JOIN descendants ON child.created_by_key_id = descendants.id
  )`;

/** The user and its test side, if it has one. */
const SIDES = 'SELECT id FROM users WHERE id = $1 OR live_user_id = $1 ORDER BY mode';

/**
 * Auth's tables, users and api_keys: every statement of the module but the fragments other modules embed
 * (users-sql.ts). Methods that take an EntityManager run in the caller's transaction.
 */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * The holder of the key with this hash, in one query (the authenticator's only one per unknown key); undefined when
   * no key has it. `testModeEnabled` false makes every test key not live.
   */
  async keyHolder(keyHash: string, testModeEnabled: boolean): Promise<StoredKeyHolder | undefined> {
    const [row] = await this.dataSource.query<StoredKeyHolder[]>(
      `SELECT k.id AS "keyId", k.user_id AS "userId", u.mode, k.role, u.monthly_quota AS "monthlyQuota", k.expires_at AS "expiresAt",
              u.live_user_id AS "liveUserId", COALESCE(l.rate_limit_per_second, u.rate_limit_per_second) AS "rateLimitPerSecond",
              COALESCE(l.live_lookup_limit, u.live_lookup_limit) AS "liveLookupLimit",
              (k.revoked_at IS NULL AND u.disabled_at IS NULL AND (l.id IS NULL OR ($2 AND l.disabled_at IS NULL))) AS live
         FROM api_keys k JOIN users u ON u.id = k.user_id LEFT JOIN users l ON l.id = u.live_user_id
        WHERE k.key_hash = $1`,
      [keyHash, testModeEnabled],
    );
    return row;
  }

  /** Writes the last use of the keys, skipping those written less than a minute before `now` (by any process). */
  async recordKeyUses(keyIds: string[], now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = $2
        WHERE id = ANY($1::uuid[]) AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
      [keyIds, now],
    );
  }

  /** The user's mode, undefined when there is no such user; in the caller's transaction when given one. */
  async userMode(userId: string, manager: EntityManager = this.dataSource.manager): Promise<KeyMode | undefined> {
    const [row] = await manager.query<{ mode: KeyMode }[]>('SELECT mode FROM users WHERE id = $1', [userId]);
    return row?.mode;
  }

  /** The live user of `userId`'s account (itself when live; a test side's live user); undefined for no such user. */
  async liveUserOf(userId: string): Promise<string | undefined> {
    const [row] = await this.dataSource.query<{ id: string }[]>('SELECT COALESCE(live_user_id, id) AS id FROM users WHERE id = $1', [userId]);
    return row?.id;
  }

  /**
   * What a member of user `userId` works with: the account's test side, plan and rate, and whether the operator
   * disabled it.
   */
  async memberAccount(userId: string): Promise<MemberAccount | undefined> {
    const [row] = await this.dataSource.query<MemberAccount[]>(
      `SELECT u.mode, t.id AS "testUserId", u.monthly_quota AS "monthlyQuota", u.rate_limit_per_second AS "rateLimitPerSecond",
              u.live_lookup_limit AS "liveLookupLimit", u.disabled_at IS NOT NULL AS disabled
         FROM users u LEFT JOIN users t ON t.live_user_id = u.id
        WHERE u.id = $1 AND u.mode = 'live'`,
      [userId],
    );
    return row;
  }

  async findUser(manager: EntityManager, userId: string): Promise<KeyUser | undefined> {
    const [row] = await manager.query<KeyUser[]>('SELECT id, monthly_quota AS "monthlyQuota", mode FROM users WHERE id = $1', [userId]);
    return row;
  }

  async insertUser(manager: EntityManager, user: Pick<User, 'name' | 'monthlyQuota'>): Promise<KeyUser> {
    const [row] = await manager.query<KeyUser[]>(
      'INSERT INTO users (name, monthly_quota) VALUES ($1, $2) RETURNING id, monthly_quota AS "monthlyQuota", mode',
      [user.name, user.monthlyQuota],
    );
    return row;
  }

  /**
   * Makes the test side of live user $1, named as it is; undefined when it has one already (ON CONFLICT on the unique
   * live_user_id makes concurrent first uses agree on one row: the loser waits for the winner's commit) or there is
   * no such user.
   */
  private async insertTestSide(manager: EntityManager, liveUserId: string): Promise<string | undefined> {
    const inserted = await manager.query<{ id: string }[]>(
      `INSERT INTO users (name, mode, live_user_id) SELECT name, 'test', id FROM users WHERE id = $1
       ON CONFLICT (live_user_id) DO NOTHING RETURNING id`,
      [liveUserId],
    );
    return inserted[0]?.id;
  }

  /**
   * The test side of live user $1, made on first use (insertTestSide, then the winner's row); undefined when there is
   * no such user.
   */
  async testSide(liveUserId: string, manager: EntityManager = this.dataSource.manager): Promise<string | undefined> {
    return (await this.insertTestSide(manager, liveUserId)) ?? (await this.testSideId(manager, liveUserId));
  }

  private async testSideId(manager: EntityManager, liveUserId: string): Promise<string | undefined> {
    const [row] = await manager.query<{ id: string }[]>('SELECT id FROM users WHERE live_user_id = $1', [liveUserId]);
    return row?.id;
  }

  /** The active keys of `ownerId`, and the expiry of key `issuerKeyId` of user `issuerUserId`, at the database's now. */
  async issueCounts(manager: EntityManager, ownerId: string, issuerKeyId: string | null, issuerUserId: string): Promise<IssueCounts> {
    const [counts] = await manager.query<IssueCounts[]>(
      `SELECT (SELECT count(*)::int FROM api_keys
                WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS active,
              (SELECT expires_at FROM api_keys WHERE id = $2 AND user_id = $3) AS "issuerExpiresAt",
              now() AS now`,
      [ownerId, issuerKeyId, issuerUserId],
    );
    return counts;
  }

  async insertKey(manager: EntityManager, key: NewKey): Promise<IssuedKey> {
    const [row] = await manager.query<IssuedKey[]>(
      `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, expires_at, created_by_key_id, role) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, name, key_prefix AS "keyPrefix", role, created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt"`,
      [key.userId, key.name, key.keyHash, key.keyPrefix, key.expiresAt, key.createdByKeyId ?? null, key.role ?? 'admin'],
    );
    return row;
  }

  /** Every key with its user's mode and plan, oldest first. */
  allKeys(): Promise<ListedKey[]> {
    return this.dataSource.query<ListedKey[]>(
      `SELECT k.id, k.user_id AS "userId", k.name, k.key_prefix AS "keyPrefix", k.role, k.created_at AS "createdAt", k.expires_at AS "expiresAt",
              k.revoked_at AS "revokedAt", k.created_by_key_id AS "createdByKeyId", u.mode, u.monthly_quota AS "monthlyQuota"
         FROM api_keys k JOIN users u ON u.id = k.user_id
        ORDER BY k.created_at, k.id`,
    );
  }

  /** The keys of user $1's sides not revoked, oldest first, each marked with whether key `callerKeyId` may revoke it. */
  userKeys(userId: string, callerKeyId: string | null): Promise<UserKeyRow[]> {
    return this.dataSource.query<UserKeyRow[]>(
      `${LINEAGE}
       SELECT k.id, k.name, k.key_prefix AS prefix, u.mode, k.role, k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt",
              k.expires_at AS "expiresAt", k.created_by_key_id AS "createdBy", k.id IN (SELECT id FROM lineage) AS revocable
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.user_id IN (SELECT id FROM sides) AND k.revoked_at IS NULL
        ORDER BY k.created_at, k.id`,
      [userId, callerKeyId],
    );
  }

  /** The first characters of every key of user $1's sides, revoked ones too, by id. */
  async keyPrefixes(userId: string): Promise<Map<string, string>> {
    const rows = await this.dataSource.query<{ id: string; prefix: string }[]>(
      `SELECT k.id, k.key_prefix AS prefix FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.id = $1 OR u.live_user_id = $1`,
      [userId],
    );
    return new Map(rows.map((row) => [row.id, row.prefix]));
  }

  /**
   * In the caller's transaction: revokes key `keyId` and its descendants if it is of `callerKeyId`'s lineage among
   * user $1's sides and not revoked; the ids of the users whose keys it revoked, none when it may not.
   */
  async revokeInLineage(manager: EntityManager, userId: string, callerKeyId: string | null, keyId: string): Promise<string[]> {
    const revocable = await manager.query<{ id: string }[]>(
      `${LINEAGE}
       SELECT id FROM api_keys WHERE id = $3 AND revoked_at IS NULL AND id IN (SELECT id FROM lineage) FOR UPDATE`,
      [userId, callerKeyId, keyId],
    );
    return revocable.length > 0 ? this.revoke(manager, keyId) : [];
  }

  /** The account a key belongs to: its user, or for a test key the live user of its test side; undefined for no such key. */
  async keyAccount(manager: EntityManager, keyId: string): Promise<string | undefined> {
    const [row] = await manager.query<{ id: string }[]>(
      'SELECT COALESCE(u.live_user_id, u.id) AS id FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1',
      [keyId],
    );
    return row?.id;
  }

  /**
   * In the caller's transaction: revokes the key and every key descended from it (a second time keeps the first);
   * the ids of the users whose keys it revoked, none when there is no such key. It locks the key and its descendants,
   * then revokes them with a statement of its own: a key being issued by one of them holds its issuer's row
   * (lockLiveIssuer) until it commits, so the second statement sees it, and a key issued after the lock finds its
   * issuer revoked.
   */
  async revoke(manager: EntityManager, keyId: string): Promise<string[]> {
    await manager.query(`${DESCENDANTS} SELECT id FROM api_keys WHERE id IN (SELECT id FROM descendants) ORDER BY id FOR UPDATE`, [keyId]);
    const [rows] = await manager.query<[{ userId: string }[], number]>(
      `${DESCENDANTS}
       UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id IN (SELECT id FROM descendants)
       RETURNING user_id AS "userId"`,
      [keyId],
    );
    return [...new Set(rows.map((row) => row.userId))];
  }

  /** Holds key `keyId`'s row until the caller's transaction ends; false when it is revoked (or gone). */
  async lockLiveIssuer(manager: EntityManager, keyId: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL FOR SHARE', [keyId]);
    return rows.length > 0;
  }

  /** In the caller's transaction: sets one of the user's settings; its value before, undefined when there is no such user. */
  async updateUser(manager: EntityManager, userId: string, setting: UserSetting, value: number | null): Promise<{ old: number | null } | undefined> {
    const column = USER_SETTINGS[setting];
    const [rows] = await manager.query<[{ old: number | null }[], number]>(
      `UPDATE users u SET ${column} = $2 FROM (SELECT id, ${column} AS old FROM users WHERE id = $1 FOR UPDATE) before
        WHERE u.id = before.id RETURNING before.old`,
      [userId, value],
    );
    return rows[0];
  }

  /**
   * In the caller's transaction: disables the user (a second time keeps the first) or enables it; when it was
   * disabled before and after, undefined when there is no such user.
   */
  async setDisabled(manager: EntityManager, userId: string, disabled: boolean): Promise<{ before: Date | null; disabledAt: Date | null } | undefined> {
    const [rows] = await manager.query<[{ before: Date | null; disabledAt: Date | null }[], number]>(
      `UPDATE users u SET disabled_at = CASE WHEN $2 THEN COALESCE(u.disabled_at, now()) END
         FROM (SELECT id, disabled_at FROM users WHERE id = $1 FOR UPDATE) before
        WHERE u.id = before.id RETURNING before.disabled_at AS before, u.disabled_at AS "disabledAt"`,
      [userId, disabled],
    );
    return rows[0];
  }

  /**
   * Disables the user and its test side and revokes all their keys, as delete-user's first step (disabling or
   * revoking a second time keeps the first); the ids of the two sides (live first), none when there is no such user.
   */
  async stopUser(userId: string): Promise<string[]> {
    return this.transaction(async (manager) => {
      const sides = await this.sides(userId, manager);
      await manager.query('UPDATE users SET disabled_at = COALESCE(disabled_at, now()) WHERE id = ANY ($1)', [sides]);
      await manager.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE user_id = ANY ($1)', [sides]);
      return sides;
    });
  }

  /** RecordOwners: the ids among `userIds` of users that exist, held (FOR KEY SHARE) until the caller's transaction ends. */
  async existingUsers(manager: EntityManager, userIds: string[]): Promise<string[]> {
    const rows = await manager.query<{ id: string }[]>('SELECT id FROM users WHERE id = ANY ($1::uuid[]) ORDER BY id FOR KEY SHARE', [userIds]);
    return rows.map((row) => row.id);
  }

  async userExists(userId: string): Promise<boolean> {
    const [{ exists }] = await this.dataSource.query<{ exists: boolean }[]>('SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS exists', [userId]);
    return exists;
  }

  /** The user and its test side (live first); locked in the caller's transaction when `manager` is given. */
  async sides(userId: string, manager?: EntityManager): Promise<string[]> {
    const rows = manager
      ? await manager.query<{ id: string }[]>(`${SIDES} FOR UPDATE`, [userId])
      : await this.dataSource.query<{ id: string }[]>(SIDES, [userId]);
    return rows.map((row) => row.id);
  }

  /** The worlds of watched numbers' states that go with user $1: its test side's, or its own if it is one. */
  async testWorlds(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = await manager.query<{ id: string }[]>(`SELECT id FROM users WHERE live_user_id = $1 OR (id = $1 AND mode = 'test')`, [userId]);
    return rows.map((row) => row.id);
  }

  /** The users' keys, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ apiKeys: number }> {
    const [counts] = await manager.query<{ apiKeys: number }[]>('SELECT count(*)::int AS "apiKeys" FROM api_keys WHERE user_id = ANY ($1)', [userIds]);
    return counts;
  }

  async keyHashes(manager: EntityManager, userIds: string[]): Promise<string[]> {
    const rows = await manager.query<{ keyHash: string }[]>('SELECT key_hash AS "keyHash" FROM api_keys WHERE user_id = ANY ($1)', [userIds]);
    return rows.map((row) => row.keyHash);
  }

  /** Deletes the user; every row that hangs on it (its test side, keys, and other modules' rows) cascades. */
  async deleteUser(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('DELETE FROM users WHERE id = $1', [userId]);
  }
}
