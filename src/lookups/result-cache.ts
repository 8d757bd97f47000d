import { Injectable } from '@nestjs/common';
import { registerIdentity } from '@lvs/register/register-identity';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import type { LookupJobData } from './lookup-jobs';
import { cacheTtlSeconds, FinalResult, FinalStatus } from './lookup-outcome';
import { LIVE_WORLD, LookupWorld, worldNames } from './lookup-world';

/** A lookup's names in its world (worldNames), its cache key made a Redis key. */
export interface CacheNames {
  cacheKey: string;
  flightId: string;
  job: LookupJobData;
}

/**
 * Final results by world and subject (worldNames says which); errors are never cached. The live register's identity is
 * part of its keys: after a change of REGISTER_URL (a sandbox, then the real register) no answer of the old register
 * is served as the new one's.
 */
@Injectable()
export class ResultCache {
  private readonly ttl: { found: number; notFound: number };
  /** Derived once: the key of every live cache read and write contains it. */
  private readonly register: string;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.ttl = { found: config.get('CACHE_TTL_FOUND_SECONDS'), notFound: config.get('CACHE_TTL_NOT_FOUND_SECONDS') };
    this.register = registerIdentity(config.get('REGISTER_URL'));
  }

  /** Where the world caches the job's result, its single-flight id, and the job as the world queues it. */
  names(world: LookupWorld, job: LookupJobData): CacheNames {
    const names = worldNames(world, job, this.register);
    return { ...names, cacheKey: this.redis.key(...names.cacheKey) };
  }

  /** Drops the world's cached results for these numbers (a test user's, after a simulated change of them). */
  async forget(world: LookupWorld, licenceNumbers: string[]): Promise<void> {
    if (licenceNumbers.length > 0) await this.redis.client.del(...licenceNumbers.map((licenceNumber) => this.names(world, { licenceNumber }).cacheKey));
  }

  /** The result under a key that names() made. */
  async get<Result>(key: string): Promise<Result | null> {
    const stored = await this.redis.client.get(key);
    return stored ? (JSON.parse(stored) as Result) : null;
  }

  /** How many of these keys have no cached result, in one round trip. */
  async countMissing(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const stored = await this.redis.client.mget(keys);
    return stored.filter((value) => value === null).length;
  }

  /** Stores the live register's result for a number, as a lookup job would have. */
  put(licenceNumber: string, result: FinalResult): Promise<void> {
    return this.write(this.names(LIVE_WORLD, { licenceNumber }).cacheKey, result);
  }

  /** Stores a result under a key that names() made. */
  async write(key: string, result: { status: FinalStatus }): Promise<void> {
    await this.redis.client.set(key, JSON.stringify(result), 'EX', cacheTtlSeconds(result.status, this.ttl));
  }
}
