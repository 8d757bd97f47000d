import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../clock/clock';
import { ApiKey } from './api-key.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';
import { AuthenticatedUser } from './authenticated-user';
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
    private readonly clock: Clock,
  ) {}

  /** The user behind a plain key, or null when the key is unknown, revoked or expired. */
  async authenticate(plainKey: string): Promise<AuthenticatedUser | null> {
    // Plain SQL: this runs on every request, and building it with the query builder cost ~1 ms each time.
    const rows = await this.keys.query<AuthenticatedUser[]>(
      `SELECT k.id AS "keyId", k.user_id AS "userId", u.monthly_quota AS "monthlyQuota"
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)`,
      [hashApiKey(plainKey), this.clock.now()],
    );
    return rows[0] ?? null;
  }

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
    const result = await this.keys
      .createQueryBuilder()
      .update(ApiKey)
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :keyId', { keyId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Returns false when there is no such user. null sets an unlimited plan. */
  async setQuota(userId: string, quota: number | null): Promise<boolean> {
    const result = await this.users.update({ id: userId }, { monthlyQuota: quota });
    return (result.affected ?? 0) > 0;
  }
}
