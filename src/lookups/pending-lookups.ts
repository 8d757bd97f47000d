import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisStore } from '../redis/redis.module';
import { countWaitingLookups } from './waiting-lookups.script';
import { PendingUser } from './fair-turns';
import { LOOKUP_PRIORITY, LookupPriority } from './lookup-jobs';

// Long enough for a request to charge and park a roster of 1,000 on a busy machine.
const RESERVATION_MS = 60_000;

/** The priorities whose lookups wait in per-user pending lists before they enter the queue. */
export const PARKED_PRIORITIES = [LOOKUP_PRIORITY.batchItem, LOOKUP_PRIORITY.watchlistRecheck] as const;
export type ParkedPriority = (typeof PARKED_PRIORITIES)[number];

/**
 * Per-user pending lists of parked lookup jobs (their ids), one per user and priority, and per priority a
 * set of the users who may have some. A list's length is the user's waiting count: a push counts a lookup
 * and a pop uncounts it in the same command, so the count is exact with no counter to heal. Every key of
 * one user carries the user's hash tag, so that each command touches one slot of a Redis Cluster; the
 * users' set is a key of its own, written in separate commands.
 */
@Injectable()
export class PendingLookups {
  constructor(private readonly redis: RedisStore) {}

  /** Appends a parked job to the user's list, then names the user in the priority's set. */
  async park(userId: string, priority: ParkedPriority, jobId: string): Promise<void> {
    await this.redis.client.rpush(this.listKey(userId, priority), jobId);
    await this.redis.client.sadd(this.usersKey(priority), userId);
  }

  /** The user's parked lookups of one priority. */
  parked(userId: string, priority: ParkedPriority): Promise<number> {
    return this.redis.client.llen(this.listKey(userId, priority));
  }

  /**
   * The user's waiting lookups: parked in both lists, plus the places held by requests still adding theirs
   * (reserve). A user with parked lookups is named in the priority's set again (not awaited: the answer
   * does not depend on it), so that a process that died between a push and the naming strands the user's
   * list only until their next request.
   */
  async waiting(userId: string): Promise<number> {
    return (await this.count(userId, 0, 0)).waiting;
  }

  /**
   * Holds `places` of the user's bound `max` for a request about to add that many lookups, in the same
   * script that counts them, so that concurrent requests of one user cannot pass the bound together. Answers
   * the release, or null when the places would take the user past the bound. A hold lapses after
   * RESERVATION_MS, so a process that dies holding one frees it.
   */
  async reserve(userId: string, places: number, max: number): Promise<(() => Promise<void>) | null> {
    const member = `${randomUUID()}:${places}`;
    const { reserved } = await this.count(userId, places, max, member);
    if (!reserved) return null;
    return async () => {
      await this.redis.client.zrem(this.reservationsKey(userId), member);
    };
  }

  private async count(userId: string, places: number, max: number, member = ''): Promise<{ waiting: number; reserved: boolean }> {
    const now = Date.now();
    const [batchItems, rechecks, held, reserved] = await countWaitingLookups.run(
      this.redis.client,
      [this.listKey(userId, LOOKUP_PRIORITY.batchItem), this.listKey(userId, LOOKUP_PRIORITY.watchlistRecheck), this.reservationsKey(userId)],
      [now, places, max, now + RESERVATION_MS, member],
    );
    const lengths = [batchItems, rechecks];
    PARKED_PRIORITIES.forEach((priority, index) => {
      if (lengths[index] > 0) this.redis.client.sadd(this.usersKey(priority), userId).catch(() => undefined);
    });
    return { waiting: batchItems + rechecks + held, reserved: reserved === 1 };
  }

  /** Every user named for the priority, with the length of their list. */
  async users(priority: ParkedPriority): Promise<PendingUser[]> {
    const userIds = await this.redis.client.smembers(this.usersKey(priority));
    const lengths = await Promise.all(userIds.map((userId) => this.redis.client.llen(this.listKey(userId, priority))));
    return userIds.map((userId, index) => ({ userId, pending: lengths[index] }));
  }

  /** The first `count` job ids of the user's list, left in place (see remove). */
  peek(userId: string, priority: ParkedPriority, count: number): Promise<string[]> {
    return this.redis.client.lrange(this.listKey(userId, priority), 0, count - 1);
  }

  /** Removes the first `count` job ids of the user's list, once they are in the queue. */
  async remove(userId: string, priority: ParkedPriority, count: number): Promise<void> {
    await this.redis.client.ltrim(this.listKey(userId, priority), count, -1);
  }

  /**
   * Takes a user with an empty list out of the priority's set. A producer may push between the two
   * reads: looking at the list again after the removal puts such a user back.
   */
  async dropIfEmpty(userId: string, priority: ParkedPriority): Promise<void> {
    if ((await this.redis.client.llen(this.listKey(userId, priority))) > 0) return;
    await this.redis.client.srem(this.usersKey(priority), userId);
    if ((await this.redis.client.llen(this.listKey(userId, priority))) > 0) await this.redis.client.sadd(this.usersKey(priority), userId);
  }

  private listKey(userId: string, priority: LookupPriority): string {
    return this.redis.key('pending', `{u${userId}}`, `p${priority}`);
  }

  private reservationsKey(userId: string): string {
    return this.redis.key('pending', `{u${userId}}`, 'reserved');
  }

  private usersKey(priority: LookupPriority): string {
    return this.redis.key('pending-users', `p${priority}`);
  }
}
