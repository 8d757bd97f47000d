import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { hashApiKey } from './api-key-secret';
import { AuthenticatedUser } from './authenticated-user';
import { isExpired } from './key-expiry';
import { KeyChanges } from './key-changes';
import { KeyUseRecorder } from './key-use-recorder';

interface KnownKey {
  user: AuthenticatedUser;
  expiresAt: Date | null;
}

/**
 * Finds the user behind a key without a database query per request: live keys of enabled users are kept
 * in a bounded in-process cache with a short TTL. Revocations, disabled users and quota changes reach every API
 * process through KeyChanges at once; expiry is checked against the cached date on every request.
 * Unknown keys are never cached, so guessing keys cannot fill the cache.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnModuleInit {
  private readonly known: LRUCache<string, KnownKey>;
  /** Bumped by every change, so that a lookup that raced with one does not cache what it read. */
  private generation = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keyChanges: KeyChanges,
    private readonly clock: Clock,
    private readonly keyUses: KeyUseRecorder,
    config: AppConfig,
  ) {
    this.known = new LRUCache({ max: config.get('AUTH_CACHE_MAX_KEYS'), ttl: config.get('AUTH_CACHE_TTL_SECONDS') * 1000 });
  }

  async onModuleInit(): Promise<void> {
    await this.keyChanges.subscribe(
      (userId) => this.forgetUser(userId),
      () => this.forgetAll(),
    );
  }

  /**
   * The user behind a plain key, or null when the key is unknown, revoked or expired, or its user disabled: at once for a key
   * this process knows (no promise to settle on the hot path), after one query for any other.
   */
  authenticate(plainKey: string): AuthenticatedUser | null | Promise<AuthenticatedUser | null> {
    return this.authenticateHash(hashApiKey(plainKey));
  }

  /** authenticate for a key known only by its stored hash: a console session keeps the hash, never the key. */
  authenticateHash(keyHash: string): AuthenticatedUser | null | Promise<AuthenticatedUser | null> {
    const known = this.known.get(keyHash);
    return known ? this.validUser(known) : this.load(keyHash).then((loaded) => loaded && this.validUser(loaded));
  }

  private validUser(known: KnownKey): AuthenticatedUser | null {
    if (isExpired(known.expiresAt, this.clock.now())) return null;
    this.keyUses.record(known.user.keyId);
    return known.user;
  }

  private async load(keyHash: string): Promise<KnownKey | null> {
    const generation = this.generation;
    const rows = await this.dataSource.query<(AuthenticatedUser & { expiresAt: Date | null })[]>(
      `SELECT k.id AS "keyId", k.user_id AS "userId", u.monthly_quota AS "monthlyQuota", k.expires_at AS "expiresAt"
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.disabled_at IS NULL`,
      [keyHash],
    );
    if (rows.length === 0) return null;
    const { expiresAt, ...user } = rows[0];
    const known = { user, expiresAt };
    if (generation === this.generation) this.known.set(keyHash, known);
    return known;
  }

  private forgetUser(userId: string): void {
    this.generation++;
    for (const [keyHash, known] of this.known.entries()) {
      if (known.user.userId === userId) this.known.delete(keyHash);
    }
  }

  private forgetAll(): void {
    this.generation++;
    this.known.clear();
  }
}
