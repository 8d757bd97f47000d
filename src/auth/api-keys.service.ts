import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityAction } from '../activity/activity-chain';
import { ActivityEntry, ActivityLog, ActivityOrigin, OPERATOR_ORIGIN } from '../activity/activity-log';
import { ApiError } from '../errors/api-error';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';
import { AuthRepository, UserKeyRow, UserSetting } from './auth.repository';
import { cappedExpiry } from './key-expiry';
import { KeyChanges } from './key-changes';
import { KeyMode } from './key-mode';
import { KeyRole } from './key-role';
import { lockUser } from './users-sql';

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
  role: KeyRole;
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
  role: KeyRole;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  /** The key that issued this one through the API; null for a key the operator issued. */
  createdBy: string | null;
  /** Whether the calling key may revoke this one: it is the calling key or descends from it. */
  revocable: boolean;
}

export const MAX_ACTIVE_KEYS_PER_USER = 10;

/**
 * An operator's change to an account (the admin command, the operator console): who makes it, and what else to
 * write in the change's own transaction with the account's event (the operators' log), so that both or neither stay.
 */
export interface OperatorChange {
  origin: ActivityOrigin;
  alongside?: (manager: EntityManager, event: ActivityEntry) => Promise<void>;
}

export class UnknownUserError extends Error {}

/** A test side was named where only a live user may be (a test side has no test side of its own). */
export class TestSideError extends Error {}

/** The user already holds MAX_ACTIVE_KEYS_PER_USER keys that are neither revoked nor expired. */
export class KeyLimitError extends Error {}

/** The expiry asked for a new key is not in the future. */
export class PastExpiryError extends Error {}

function userKey(row: UserKeyRow): UserKey {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/**
 * The test side of live user $1, made on first use: ON CONFLICT on its unique live_user_id makes concurrent first uses
 * agree on one row (the loser waits for the winner's commit, then reads its row). UnknownUserError when there is no
 * such user, TestSideError when $1 is itself a test side.
 */
async function testSideOf(repository: AuthRepository, manager: EntityManager, liveUserId: string): Promise<string> {
  const mode = await repository.userMode(liveUserId, manager);
  if (!mode) throw new UnknownUserError(`No user ${liveUserId}`);
  if (mode === 'test') throw new TestSideError(`User ${liveUserId} is a test side: give its live user`);
  const existing = await repository.testSide(liveUserId, manager);
  if (!existing) throw new UnknownUserError(`No user ${liveUserId}`); // deleted meanwhile
  return existing;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly keyChanges: KeyChanges,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * Issues a key, for a new user (with the given plan) or for an existing one. A test key (`testModeQuota` given)
   * goes to the user's test side, made in the same transaction on first use; a new user is then made live, with its
   * test side, and only the test key is issued.
   */
  async createKey(
    options: {
      name: string;
      quota?: number | null;
      expiresAt?: Date | null;
      userId?: string;
      testModeQuota?: number;
    },
    change: OperatorChange = { origin: OPERATOR_ORIGIN },
  ): Promise<CreatedKey> {
    const mode: KeyMode = options.testModeQuota === undefined ? 'live' : 'test';
    const created = await this.repository.transaction(async (manager) => {
      const user = options.userId
        ? await this.repository.findUser(manager, options.userId)
        : await this.repository.insertUser(manager, { name: options.name, monthlyQuota: options.quota ?? null });
      if (!user) throw new UnknownUserError(`No user ${options.userId}`);
      // A live key on a test side would be a test key said to be live.
      if (mode === 'live' && user.mode === 'test') {
        throw new TestSideError(`User ${user.id} is a test side: give its live user, with --test for a test key`);
      }
      const keyUserId = mode === 'test' ? await testSideOf(this.repository, manager, user.id) : user.id;
      const key = generateApiKey(mode);
      const saved = await this.repository.insertKey(manager, {
        userId: keyUserId,
        name: options.name,
        keyHash: hashApiKey(key),
        keyPrefix: displayPrefix(key),
        expiresAt: options.expiresAt ?? null,
      });
      const changes = { name: { old: null, new: saved.name }, mode: { old: null, new: mode }, role: { old: null, new: saved.role } };
      await this.logChange(change, { userId: user.id, action: 'key.created', target: { type: 'key', id: saved.id }, changes }, manager);
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
    const keys = await this.repository.allKeys();
    return keys.map((key) => ({
      keyId: key.id,
      userId: key.userId,
      mode: key.mode,
      name: key.name,
      prefix: key.keyPrefix,
      role: key.role,
      quota: key.monthlyQuota,
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
  async userKeys(userId: string, callerKeyId: string | null): Promise<UserKey[]> {
    const rows = await this.repository.userKeys(userId, callerKeyId);
    return rows.map(userKey);
  }

  /** Every key's first characters, revoked keys' too (the activity log names keys by them), by id. */
  keyPrefixes(userId: string): Promise<Map<string, string>> {
    return this.repository.keyPrefixes(userId);
  }

  /**
   * Issues one more key of `mode` through the key `issuerKeyId` of user `userId`: to that user, or to the test side
   * of a live user (made on first use) for a test key; the caller has checked with issuedKeyMode that the issuer may.
   * Refused with KeyLimitError when the receiving user already holds the most active keys, and with PastExpiryError
   * for an expiry not in the future, and 401 when the issuer was revoked meanwhile; `issuerKeyId` null: a member issues it (no issuer to outlive). The new key expires no later than its issuer. The receiving user's row is locked
   * first, so that concurrent requests count one after another and never pass the limit.
   */
  async createUserKey(
    origin: ActivityOrigin,
    userId: string,
    issuerKeyId: string | null,
    request: { name: string; expiresAt: Date | null; mode: KeyMode; role: KeyRole },
  ): Promise<UserKey & { key: string }> {
    return this.repository.transaction(async (manager) => {
      const issuerMode = await this.repository.userMode(userId, manager);
      const ownerId = request.mode === issuerMode ? userId : await testSideOf(this.repository, manager, userId);
      // Held until this key commits, so that a revocation of the issuer waits for it and takes it along.
      if (issuerKeyId !== null && !(await this.repository.lockLiveIssuer(manager, issuerKeyId))) throw new ApiError('UNAUTHORIZED');
      await lockUser(manager, ownerId, 'UPDATE');
      const { active, issuerExpiresAt, now } = await this.repository.issueCounts(manager, ownerId, issuerKeyId, userId);
      if (request.expiresAt !== null && request.expiresAt.getTime() <= now.getTime()) throw new PastExpiryError();
      if (active >= MAX_ACTIVE_KEYS_PER_USER) throw new KeyLimitError();
      const key = generateApiKey(request.mode);
      const saved = await this.repository.insertKey(manager, {
        userId: ownerId,
        name: request.name,
        keyHash: hashApiKey(key),
        keyPrefix: displayPrefix(key),
        createdByKeyId: issuerKeyId,
        expiresAt: cappedExpiry(request.expiresAt, issuerExpiresAt),
        role: request.role,
      });
      const { id, name, keyPrefix: prefix, role, createdAt, lastUsedAt, expiresAt } = saved;
      const mode = request.mode;
      const changes = { name: { old: null, new: name }, mode: { old: null, new: mode }, role: { old: null, new: role } };
      await this.activity.append(origin, { userId, action: 'key.created', target: { type: 'key', id }, changes }, manager);
      return { ...userKey({ id, name, prefix, mode, role, createdAt, lastUsedAt, expiresAt, createdBy: issuerKeyId, revocable: true }), key };
    });
  }

  /**
   * Revokes a key that `callerKeyId` of this user may revoke, with every key descended from it: itself or a key
   * descended from it, its test side's included for a live key, or, to a key the operator issued, one whose issuer is
   * revoked. False otherwise (its issuer, another key the operator issued, another user's, one revoked already, a live
   * key asked by a test key), so that the caller cannot tell those apart from a key that does not exist. With
   * `callerKeyId` null (a member), any key of the account.
   */
  async revokeUserKey(origin: ActivityOrigin, userId: string, callerKeyId: string | null, keyId: string): Promise<boolean> {
    const revoked = await this.repository.transaction(async (manager) => {
      const userIds = await this.repository.revokeInLineage(manager, userId, callerKeyId, keyId);
      if (userIds.length > 0) await this.activity.append(origin, { userId, action: 'key.revoked', target: { type: 'key', id: keyId } }, manager);
      return userIds;
    });
    return this.announce(revoked);
  }

  /** Revokes the key and its descendants; false when there is no such key. Revoking twice keeps the first time. */
  async revokeKey(keyId: string, change: OperatorChange): Promise<boolean> {
    const revoked = await this.repository.transaction(async (manager) => {
      const account = await this.repository.keyAccount(manager, keyId);
      if (account === undefined) return [];
      await this.logChange(change, { userId: account, action: 'key.revoked', target: { type: 'key', id: keyId } }, manager);
      return this.repository.revoke(manager, keyId);
    });
    return this.announce(revoked);
  }

  /** A new live user with its plan and no key yet (a partner whose first owner is invited instead): its id. */
  async createUser(name: string, quota: number | null): Promise<string> {
    return this.repository.transaction(async (manager) => (await this.repository.insertUser(manager, { name, monthlyQuota: quota })).id);
  }

  /** Every API process drops what it cached about these users' keys; false when there are none. */
  private async announce(userIds: string[]): Promise<boolean> {
    for (const userId of userIds) await this.keyChanges.publish(userId);
    return userIds.length > 0;
  }

  /** Returns false when there is no such user. null returns the user to the default rate. */
  async setRateLimit(userId: string, ratePerSecond: number | null, change: OperatorChange): Promise<boolean> {
    return (await this.changeSetting(change, userId, 'rateLimitPerSecond', ratePerSecond, 'account.limits_changed')) && this.announce([userId]);
  }

  /**
   * Returns false when there is no such user. null returns the user to WATCH_MAX_ENTRIES_PER_USER. Nothing to
   * announce: the watchlist reads the limit from the user's row whenever it adds entries.
   */
  async setWatchLimit(userId: string, watchLimit: number | null, change: OperatorChange): Promise<boolean> {
    return this.changeSetting(change, userId, 'watchLimit', watchLimit, 'account.limits_changed');
  }

  /**
   * Returns false when there is no such user. null returns the user to USER_MAX_LIVE_LOOKUPS. Announced, as the rate
   * is: the bound travels with the key's holder, which every API process caches.
   */
  async setLiveLookupLimit(userId: string, liveLookupLimit: number | null, change: OperatorChange): Promise<boolean> {
    return (await this.changeSetting(change, userId, 'liveLookupLimit', liveLookupLimit, 'account.limits_changed')) && this.announce([userId]);
  }

  /** Returns false when there is no such user. null sets an unlimited plan. */
  async setQuota(userId: string, quota: number | null, change: OperatorChange): Promise<boolean> {
    return (await this.changeSetting(change, userId, 'monthlyQuota', quota, 'account.quota_changed')) && this.announce([userId]);
  }

  /** Sets one of the operator's settings of the user and logs it with its old value, together; false when there is no such user. */
  private changeSetting(change: OperatorChange, userId: string, setting: UserSetting, value: number | null, action: ActivityAction): Promise<boolean> {
    return this.repository.transaction(async (manager) => {
      const before = await this.repository.updateUser(manager, userId, setting, value);
      if (!before) return false;
      const changes = { [setting]: { old: before.old, new: value } };
      await this.logChange(change, { userId, action, target: { type: 'account', id: userId }, changes }, manager);
      return true;
    });
  }

  /**
   * Stops a user (`disabled`) or lets it go on; null when there is no such user. Every API process
   * refuses its keys from the announcement on; the worker reads the column where it re-checks and delivers.
   * Disabling twice keeps the first time.
   */
  async setDisabled(userId: string, disabled: boolean, change: OperatorChange): Promise<{ disabledAt: string | null } | null> {
    const changed = await this.repository.transaction(async (manager) => {
      const result = await this.repository.setDisabled(manager, userId, disabled);
      if (!result) return undefined;
      const changes = { disabledAt: { old: result.before?.toISOString() ?? null, new: result.disabledAt?.toISOString() ?? null } };
      const action = disabled ? 'account.disabled' : 'account.enabled';
      await this.logChange(change, { userId, action, target: { type: 'account', id: userId }, changes }, manager);
      return result;
    });
    if (!changed) return null;
    await this.keyChanges.publish(userId);
    return { disabledAt: changed.disabledAt?.toISOString() ?? null };
  }

  /** The account's event of an operator's change, and what the change writes alongside it, in its transaction. */
  private async logChange(change: OperatorChange, event: ActivityEntry, manager: EntityManager): Promise<void> {
    await this.activity.append(change.origin, event, manager);
    await change.alongside?.(manager, event);
  }
}
