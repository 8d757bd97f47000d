import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';
import { takeLivePlace } from '../redis/live-places.script';

/** How many CSV exports one user may download at a time. */
export const MAX_EXPORTS_PER_USER = 2;
/** How long a place lasts unless renewed: a process that dies mid-download frees its places within it. */
export const EXPORT_LEASE_MS = 60_000;
/** What a refused export is told to wait: a place frees when a download ends, which cannot be foretold. */
const RETRY_AFTER_SECONDS = 10;

/** One export's place among its user's. */
export interface ExportPlace {
  userId: string;
  holder: string;
}

/**
 * The exports each user is downloading, shared by every API process: a sorted set of holders scored by when their
 * lease lapses, taken atomically (takeLivePlace), renewed while the download goes on and given back when it ends.
 */
@Injectable()
export class ExportPlaces {
  constructor(private readonly redis: RedisStore) {}

  /** A place for one more export of the user; RATE_LIMITED with Retry-After past MAX_EXPORTS_PER_USER. */
  async take(userId: string): Promise<ExportPlace> {
    const place = { userId, holder: randomUUID() };
    const now = Date.now();
    const held = await takeLivePlace.run(this.redis.client, [this.key(userId)], [now, now + EXPORT_LEASE_MS, MAX_EXPORTS_PER_USER, place.holder]);
    if (held < 0) throw ApiError.rateLimited(RETRY_AFTER_SECONDS);
    return place;
  }

  /** Extends the lease of a download still going on (only a place still held: one that lapsed stays given up). */
  async renew(place: ExportPlace): Promise<void> {
    const lapseAt = Date.now() + EXPORT_LEASE_MS;
    await this.redis.client.multi().zadd(this.key(place.userId), 'XX', lapseAt, place.holder).pexpireat(this.key(place.userId), lapseAt).exec();
  }

  async release(place: ExportPlace): Promise<void> {
    await this.redis.client.zrem(this.key(place.userId), place.holder);
  }

  private key(userId: string): string {
    return this.redis.key('exports', `{u${userId}}`);
  }
}
