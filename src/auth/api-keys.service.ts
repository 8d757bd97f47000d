import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKey } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';
import { KeyChanges } from './key-changes';
import { User } from './user.entity';

export interface CreatedKey {
  key: string;
  keyId: string;
  userId: string;
  name: string;
  quota: number | null;
  expiresAt: string | null;
}

export interface KeyListing {
  keyId: string;
  userId: string;
  name: string;
  prefix: string;
  quota: number | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A key as its own user sees it (GET /v1/keys). */
export interface UserKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export const MAX_ACTIVE_KEYS_PER_USER = 10;

export class UnknownUserError extends Error {}

/** The user already holds MAX_ACTIVE_KEYS_PER_USER keys that are neither revoked nor expired. */
export class KeyLimitError extends Error {}

function userKey(key: ApiKey): UserKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.keyPrefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly keyChanges: KeyChanges,
  ) {}

  /** Issues a key, for a new user (with the given plan) or for an existing one. */
  async createKey(options: {
    name: string;
    quota?: number | null;
    expiresAt?: Date | null;
    userId?: string;
  }): Promise<CreatedKey> {
    const created = await this.keys.manager.transaction(async (manager) => {
      let user: User | null;
      if (options.userId) {
        user = await manager.findOneBy(User, { id: options.userId });
        if (!user) throw new UnknownUserError(`No user ${options.userId}`);
      } else {
        user = await manager.save(manager.create(User, { name: options.name, monthlyQuota: options.quota ?? null }));
      }
      const key = generateApiKey();
      const saved = await manager.save(
        manager.create(ApiKey, {
          userId: user.id,
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
        userId: user.id,
        name: saved.name,
        quota: user.monthlyQuota,
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
      name: key.name,
      prefix: key.keyPrefix,
      quota: key.user?.monthlyQuota ?? null,
      createdAt: key.createdAt.toISOString(),
      expiresAt: key.expiresAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    }));
  }

  /** A user's keys that are not revoked (expired ones included, so their owner sees why they fail), oldest first. */
  async userKeys(userId: string): Promise<UserKey[]> {
    const keys = await this.keys.find({ where: { userId, revokedAt: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
    return keys.map(userKey);
  }

  /**
   * Issues one more key to a user, refused with KeyLimitError when the user already holds the most active keys.
   * The user's row is locked first, so that concurrent requests count one after another and never pass the limit.
   */
  async createUserKey(userId: string, name: string): Promise<UserKey & { key: string }> {
    return this.keys.manager.transaction(async (manager) => {
      await manager.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const [{ active }] = await manager.query<{ active: number }[]>(
        `SELECT count(*)::int AS active FROM api_keys
          WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [userId],
      );
      if (active >= MAX_ACTIVE_KEYS_PER_USER) throw new KeyLimitError();
      const key = generateApiKey();
      const saved = await manager.save(
        manager.create(ApiKey, { userId, name, keyHash: hashApiKey(key), keyPrefix: displayPrefix(key), expiresAt: null, revokedAt: null }),
      );
      return { ...userKey(saved), key };
    });
  }

  /** Revokes a key of this user; false when the user has no such key that is not revoked already. */
  async revokeUserKey(userId: string, keyId: string): Promise<boolean> {
    const [rows] = await this.keys.query<[{ id: string }[], number]>(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
      [keyId, userId],
    );
    if (rows.length === 0) return false;
    await this.keyChanges.publish(userId);
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
