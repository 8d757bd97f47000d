import { Injectable } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';

/** The last samples kept of pages of new shapes, each list kept this long after its newest sample. */
const SAMPLES_KEPT = 20;
const SAMPLES_TTL_SECONDS = 7 * 86_400;

/** A shape of register page as the worker has seen it. */
export interface SeenPageShape {
  shape: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
  /** New, and not yet acknowledged by an operator. */
  unacknowledged: boolean;
}

/** A shape seen for the first time, as the register watch announces it. */
export interface NewPageShape {
  shape: string;
  at: string;
  /** Whether the parser read the page. */
  parsed: boolean;
}

/** A page of a new shape, as kept for an operator: its names and dates of birth are lengths (pageSample). */
export interface PageShapeSample extends NewPageShape {
  page: string;
}

/**
 * The register pages' shapes in Redis, shared by every process: each shape's first and last sight and count, the
 * new shapes not yet acknowledged, the samples of their pages, and the new shapes the register watch has yet to
 * announce. The lookup worker records; readiness reads (register: drifted); the register watch alerts;
 * `npm run admin -- shape acknowledge SHAPE` clears.
 */
@Injectable()
export class PageShapeStore {
  private readonly keys: Record<'count' | 'firstSeen' | 'lastSeen' | 'unacknowledged' | 'samples' | 'toAnnounce', string>;

  constructor(private readonly redis: RedisStore) {
    this.keys = {
      count: redis.key('page-shapes:count'),
      firstSeen: redis.key('page-shapes:first-seen'),
      lastSeen: redis.key('page-shapes:last-seen'),
      unacknowledged: redis.key('page-shapes:unacknowledged'),
      samples: redis.key('page-shapes:samples'),
      toAnnounce: redis.key('page-shapes:to-announce'),
    };
  }

  /**
   * Counts a page of the shape; true only the first time ever a shape not `known` is seen (by any worker): that page
   * is kept as a sample, the shape waits for an acknowledgement and for the register watch's alert.
   */
  async record(shape: string, known: boolean, at: Date, sample: () => Pick<PageShapeSample, 'parsed' | 'page'>): Promise<boolean> {
    const seenAt = at.toISOString();
    const replies = (await this.redis.client
      .multi()
      .hincrby(this.keys.count, shape, 1)
      .hset(this.keys.lastSeen, shape, seenAt)
      .hsetnx(this.keys.firstSeen, shape, seenAt)
      .exec()) as [Error | null, number][];
    const firstSighting = replies[2][1] === 1;
    if (known || !firstSighting) return false;
    const kept: PageShapeSample = { shape, at: seenAt, ...sample() };
    await this.redis.client
      .multi()
      .hset(this.keys.unacknowledged, shape, seenAt)
      .lpush(this.keys.samples, JSON.stringify(kept))
      .ltrim(this.keys.samples, 0, SAMPLES_KEPT - 1)
      .expire(this.keys.samples, SAMPLES_TTL_SECONDS)
      .rpush(this.keys.toAnnounce, JSON.stringify({ shape, at: seenAt, parsed: kept.parsed } satisfies NewPageShape))
      .exec();
    return true;
  }

  /** The next new shape to alert of, taken by one worker only; null when none waits. */
  async nextToAnnounce(): Promise<NewPageShape | null> {
    const next = await this.redis.client.lpop(this.keys.toAnnounce);
    return next === null ? null : (JSON.parse(next) as NewPageShape);
  }

  /** Whether a new shape waits for an operator's acknowledgement. */
  async drifted(): Promise<boolean> {
    return (await this.redis.client.hlen(this.keys.unacknowledged)) > 0;
  }

  /** Acknowledges a new shape: it is known from now on (readiness no longer drifted for it); false if it was not waiting. */
  async acknowledge(shape: string): Promise<boolean> {
    return (await this.redis.client.hdel(this.keys.unacknowledged, shape)) === 1;
  }

  /** Every shape seen, the unacknowledged first, then the most seen; and the samples kept, newest first. */
  async list(): Promise<{ shapes: SeenPageShape[]; samples: PageShapeSample[] }> {
    const [counts, firsts, lasts, unacknowledged, samples] = await Promise.all([
      this.redis.client.hgetall(this.keys.count),
      this.redis.client.hgetall(this.keys.firstSeen),
      this.redis.client.hgetall(this.keys.lastSeen),
      this.redis.client.hgetall(this.keys.unacknowledged),
      this.redis.client.lrange(this.keys.samples, 0, -1),
    ]);
    const shapes = Object.entries(counts).map(([shape, count]) => ({
      shape,
      firstSeen: firsts[shape],
      lastSeen: lasts[shape],
      count: Number(count),
      unacknowledged: shape in unacknowledged,
    }));
    shapes.sort((a, b) => Number(b.unacknowledged) - Number(a.unacknowledged) || b.count - a.count);
    return { shapes, samples: samples.map((sample) => JSON.parse(sample) as PageShapeSample) };
  }
}
