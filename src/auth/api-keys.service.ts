import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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

export class UnknownUserError extends Error {}

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
    return this.keys.manager.transaction(async (manager) => {
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
