import { Injectable, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { isDatabaseUnavailable } from '../errors/dependency-unavailable';
import { hashApiKey } from './api-key-secret';
import { AuthenticatedUser, KeyCaller } from './authenticated-user';
import { AuthRepository } from './auth.repository';
import { isExpired } from './key-expiry';
import { KeyChanges } from './key-changes';
import { KeyUseRecorder } from './key-use-recorder';

/** Who holds a key, and the user's own request rate (null: the default rate). */
export interface KeyHolder {
  user: KeyCaller;
  rateLimitPerSecond: number | null;
}

interface KnownKey {
  holder: KeyHolder;
  /** a test key's live user, whose changes (disabled, rate) reach the key too; null for a live key */
  liveUserId: string | null;
  expiresAt: Date | null;
  /** false: the key is revoked or its user disabled, so it answers 401 until a change of its user is announced */
  live: boolean;
}

/**
 * How long a key PostgreSQL did not know at all is answered 401 without asking again. No announcement can
 * concern it: a key is made at random when it is created, so nobody could have tried it before.
 */
export const UNKNOWN_KEY_TTL_MS = 5000;

/** While PostgreSQL cannot answer, how long a key known before is trusted again before PostgreSQL is asked once more. */
export const STALE_KEY_RETRY_MS = 5000;

/**
 * Finds the holder of a key without a database query per request: every key PostgreSQL knows (live, revoked, or of a
 * disabled user) is kept in a bounded in-process cache with a short TTL, under its user, and keys PostgreSQL did not
 * know in another for UNKNOWN_KEY_TTL_MS, so that a flood of made-up keys costs a query per key at most once in that
 * time. Creations, revocations, disabled users and plan changes reach every API process through KeyChanges at once
 * and drop only that user's keys; expiry is checked against the cached date on every request. A key whose entry only
 * aged out still stands while PostgreSQL cannot answer: a change to it would have removed the entry, so a partner's
 * cached answers keep coming through a database outage.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit {
  private readonly known: LRUCache<string, KnownKey>;
  private readonly unknown: LRUCache<string, true>;
  /** Bumped by every change, so that a lookup that raced with one does not cache what it read. */
  private generation = 0;
  private readonly testModeEnabled: boolean;
  private readonly testModeQuota: number;

  constructor(
    private readonly repository: AuthRepository,
    private readonly keyChanges: KeyChanges,
    private readonly clock: Clock,
    private readonly keyUses: KeyUseRecorder,
    config: AppConfig,
  ) {
    this.known = new LRUCache({
      max: config.get('AUTH_CACHE_MAX_KEYS'),
      ttl: config.get('AUTH_CACHE_TTL_SECONDS') * 1000,
      // An aged-out entry stays for load() to fall back on; get() still answers only fresh ones.
      noDeleteOnStaleGet: true,
    });
    this.unknown = new LRUCache({ max: config.get('AUTH_CACHE_MAX_KEYS'), ttl: UNKNOWN_KEY_TTL_MS });
    this.testModeEnabled = config.get('TEST_MODE_ENABLED');
    this.testModeQuota = config.get('TEST_MODE_QUOTA');
  }

  async onModuleInit(): Promise<void> {
    await this.keyChanges.subscribe(
      (userId) => this.forgetUser(userId),
      () => this.forgetAll(),
    );
  }

  /** The user behind a plain key, or null: at once for a key this process can tell about, else after one query. */
  async authenticate(plainKey: string): Promise<AuthenticatedUser | null> {
    return (await this.holderOfHash(hashApiKey(plainKey)))?.user ?? null;
  }

  /**
   * The holder (user and rate) of a key known only by its stored hash, as the guard would find it: a console session
   * keeps the hash, never the key.
   */
  holderOfHash(keyHash: string): KeyHolder | null | Promise<KeyHolder | null> {
    const recalled = this.recall(keyHash);
    return recalled !== undefined ? recalled : this.load(keyHash);
  }

  /**
   * What this process can tell about a key by itself: its holder; null when the key is known to be
   * unknown, revoked or expired, or its user disabled; undefined when only PostgreSQL can tell (see load).
   */
  recall(keyHash: string): KeyHolder | null | undefined {
    const known = this.known.get(keyHash);
    if (known) return known.live ? this.validHolder(known) : null;
    return this.unknown.has(keyHash) ? null : undefined;
  }

  /**
   * Asks PostgreSQL for the holder of a key and remembers the answer, whichever it is. A test key works while test
   * mode is enabled and its live user is not disabled; it has TEST_MODE_QUOTA and its live user's rate (in a bucket
   * of its own, its user's).
   */
  async load(keyHash: string): Promise<KeyHolder | null> {
    const generation = this.generation;
    let row: Awaited<ReturnType<AuthRepository['keyHolder']>>;
    try {
      row = await this.repository.keyHolder(keyHash, this.testModeEnabled);
    } catch (error) {
      const stale = isDatabaseUnavailable(error) ? this.known.get(keyHash, { allowStale: true }) : undefined;
      if (stale === undefined) throw error;
      if (generation === this.generation) this.known.set(keyHash, stale, { ttl: STALE_KEY_RETRY_MS });
      return stale.live ? this.validHolder(stale) : null;
    }
    const current = generation === this.generation;
    if (!row) {
      if (current) this.unknown.set(keyHash, true);
      return null;
    }
    const { expiresAt, rateLimitPerSecond, live, liveUserId, ...user } = row;
    if (user.mode === 'test') user.monthlyQuota = this.testModeQuota;
    const known = { holder: { user, rateLimitPerSecond }, expiresAt, live, liveUserId };
    if (current) this.known.set(keyHash, known);
    return live ? this.validHolder(known) : null;
  }

  private validHolder({ holder, expiresAt }: KnownKey): KeyHolder | null {
    if (isExpired(expiresAt, this.clock.now())) return null;
    this.keyUses.record(holder.user.keyId);
    return holder;
  }

  /** A user's keys or plan changed, or it was disabled or enabled: only its own keys (and its test side's) are read again. */
  private forgetUser(userId: string): void {
    this.generation++;
    for (const [keyHash, known] of this.known.entries()) {
      if (known.holder.user.userId === userId || known.liveUserId === userId) this.known.delete(keyHash);
    }
  }

  private forgetAll(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
  }
}
