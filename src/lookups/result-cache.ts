import { Injectable } from '@nestjs/common';
import { registerIdentity } from '@lvs/register/register-identity';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { cacheTtlSeconds, FinalResult, FinalStatus, NameSearchResult } from './lookup-outcome';

/**
 * Final results by register and licence number, shared by all users; errors are never cached. The register
 * is part of the key: after a change of REGISTER_URL (a sandbox, then the real register) no answer of the
 * old register is served as the new one's.
 */
@Injectable()
export class ResultCache {
  private readonly ttl: { found: number; notFound: number };
  /** Derived once: the key of every cache read and write contains it. */
  private readonly register: string;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.ttl = { found: config.get('CACHE_TTL_FOUND_SECONDS'), notFound: config.get('CACHE_TTL_NOT_FOUND_SECONDS') };
    this.register = registerIdentity(config.get('REGISTER_URL'));
  }

  key(licenceNumber: string): string {
    return this.redis.key('result', this.register, licenceNumber);
  }

  /** A name search's result, named by the search's digest (never by the names or a date of birth). */
  nameSearchKey(searchKey: string): string {
    return this.redis.key('name-result', this.register, searchKey);
  }

  /**
   * A test user's own result for a subject (subjectId): kept apart from the register's and from every other user's,
   * so that a simulated change reaches only that user, at its next lookup (forget).
   */
  testKey(testUserId: string, subjectId: string): string {
    return this.redis.key('test-result', testUserId, subjectId);
  }

  /** Drops a test user's cached results for these numbers, after a simulated change of them. */
  async forgetTest(testUserId: string, licenceNumbers: string[]): Promise<void> {
    if (licenceNumbers.length > 0) await this.redis.client.del(...licenceNumbers.map((licenceNumber) => this.testKey(testUserId, licenceNumber)));
  }

  get(licenceNumber: string): Promise<FinalResult | null> {
    return this.getByKey<FinalResult>(this.key(licenceNumber));
  }

  getNameSearch(searchKey: string): Promise<NameSearchResult | null> {
    return this.getByKey<NameSearchResult>(this.nameSearchKey(searchKey));
  }

  /** The result under a key that key() or nameSearchKey() made. */
  async getByKey<Result>(key: string): Promise<Result | null> {
    const stored = await this.redis.client.get(key);
    return stored ? (JSON.parse(stored) as Result) : null;
  }

  /** How many of these keys have no cached result, in one round trip. */
  async countMissing(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const stored = await this.redis.client.mget(keys);
    return stored.filter((value) => value === null).length;
  }

  put(licenceNumber: string, result: FinalResult): Promise<void> {
    return this.write(this.key(licenceNumber), result);
  }

  putNameSearch(searchKey: string, result: NameSearchResult): Promise<void> {
    return this.write(this.nameSearchKey(searchKey), result);
  }

  /** Stores a result under a key that key(), nameSearchKey() or testKey() made. */
  async write(key: string, result: { status: FinalStatus }): Promise<void> {
    await this.redis.client.set(key, JSON.stringify(result), 'EX', cacheTtlSeconds(result.status, this.ttl));
  }
}
