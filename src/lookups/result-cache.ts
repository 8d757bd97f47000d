import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { cacheTtlSeconds, FinalResult } from './lookup-outcome';

/** Final results by licence number, shared by all users; errors are never cached. */
@Injectable()
export class ResultCache {
  private readonly ttl: { found: number; notFound: number };

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.ttl = { found: config.get('CACHE_TTL_FOUND_SECONDS'), notFound: config.get('CACHE_TTL_NOT_FOUND_SECONDS') };
  }

  key(licenceNumber: string): string {
    return this.redis.key('result', licenceNumber);
  }

  async get(licenceNumber: string): Promise<FinalResult | null> {
    const stored = await this.redis.client.get(this.key(licenceNumber));
    return stored ? (JSON.parse(stored) as FinalResult) : null;
  }

  /** Whether any of these numbers has no cached result, in one round trip. */
  async anyMissing(licenceNumbers: string[]): Promise<boolean> {
    if (licenceNumbers.length === 0) return false;
    const stored = await this.redis.client.mget(licenceNumbers.map((licenceNumber) => this.key(licenceNumber)));
    return stored.some((value) => value === null);
  }

  async put(licenceNumber: string, result: FinalResult): Promise<void> {
    await this.redis.client.set(
      this.key(licenceNumber),
      JSON.stringify(result),
      'EX',
      cacheTtlSeconds(result.status, this.ttl),
    );
  }
}
