import { Injectable } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';
import { takeLivePlace } from '../redis/live-places.script';

/**
 * A bound, not the usual life: a live lookup holds its place until the register has answered it, which its job's
 * finish releases. Should no process see the finish (all down at the time), the place lapses after this long.
 */
export const LIVE_PLACE_LAPSE_MS = 15 * 60_000;

/** A place taken for a live lookup: `ahead` is how many of the user's live lookups were waiting before it. */
export interface LivePlace {
  userId: string;
  jobId: string;
  ahead: number;
}

/**
 * Each user's live lookups waiting for the register, from admission until the register has answered them, even
 * after their caller got a 202. The count bounds a user (USER_MAX_LIVE_LOOKUPS), and its size at admission orders
 * the user's lookups behind those of users with fewer waiting (the priority the queue gives them). A place is held
 * under the job it waits on, and the job's holders are listed, so that whichever process hears the job finish
 * gives every place back.
 */
@Injectable()
export class LiveLookups {
  constructor(private readonly redis: RedisStore) {}

  /** Takes a place for a lookup that will run as job `jobId` (an id chosen before it is queued); null past `max`. */
  async take(userId: string, jobId: string, max: number): Promise<LivePlace | null> {
    const now = Date.now();
    await this.redis.client.multi().sadd(this.holdersKey(jobId), userId).pexpire(this.holdersKey(jobId), LIVE_PLACE_LAPSE_MS).exec();
    const ahead = await takeLivePlace.run(this.redis.client, [this.placesKey(userId)], [now, now + LIVE_PLACE_LAPSE_MS, max, jobId]);
    if (ahead >= 0) return { userId, jobId, ahead };
    await this.redis.client.srem(this.holdersKey(jobId), userId);
    return null;
  }

  /** The lookup joined job `jobId` instead of its own: the place moves there. */
  async move(place: LivePlace, jobId: string): Promise<LivePlace> {
    const now = Date.now();
    await this.redis.client.multi().sadd(this.holdersKey(jobId), place.userId).pexpire(this.holdersKey(jobId), LIVE_PLACE_LAPSE_MS).exec();
    await this.redis.client
      .multi()
      .zrem(this.placesKey(place.userId), place.jobId)
      .zadd(this.placesKey(place.userId), now + LIVE_PLACE_LAPSE_MS, jobId)
      .exec();
    await this.redis.client.del(this.holdersKey(place.jobId));
    return { ...place, jobId };
  }

  /** Gives one place back: its lookup was refused after admission, or its job is over. */
  async release(place: LivePlace): Promise<void> {
    await this.redis.client.zrem(this.placesKey(place.userId), place.jobId);
    await this.redis.client.srem(this.holdersKey(place.jobId), place.userId);
  }

  /** Job `jobId` is over: every place held under it goes back. Only the first process to take the list does it. */
  async finished(jobId: string): Promise<void> {
    const [[, userIds]] = (await this.redis.client.multi().smembers(this.holdersKey(jobId)).del(this.holdersKey(jobId)).exec()) as [
      [Error | null, string[]],
      [Error | null, number],
    ];
    await Promise.all(userIds.map((userId) => this.redis.client.zrem(this.placesKey(userId), jobId)));
  }

  private placesKey(userId: string): string {
    return this.redis.key('live', `{u${userId}}`);
  }

  private holdersKey(jobId: string): string {
    return this.redis.key('live-holders', jobId);
  }
}
