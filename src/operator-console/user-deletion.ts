import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { EntityManager } from 'typeorm';
import { ActivityLog } from '../activity/activity-log';
import { AuthRepository } from '../auth/auth.repository';
import { KeyChanges } from '../auth/key-changes';
import { BatchRepository } from '../batches/batch.repository';
import { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { evidenceStreamKey } from '../verification-records/evidence-recorder';
import { EvidenceRepository } from '../verification-records/evidence.repository';
import { QuotaRepository } from '../quota/quota.repository';
import { bullPrefix, failFastConnection, redisConnectionSettings } from '../redis/redis-clients';
import { RedisStore } from '../redis/redis.module';
import { WatchlistRepository } from '../watchlist/watchlist.repository';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { bullJobOf, namer } from './user-deletion-names';

/** How many rows of each kind belong to a user: what delete-user deletes. */
export interface UserFootprint {
  apiKeys: number;
  batches: number;
  batchItems: number;
  watchEntries: number;
  webhookEndpoints: number;
  webhookDeliveries: number;
  webhookAttempts: number;
  events: number;
  quotaCharges: number;
  quotaUsage: number;
  verificationRecords: number;
  activityEvents: number;
}

export interface UserDeletionReport {
  userId: string;
  deletedAt: string;
  deleted: UserFootprint & { redisKeys: number };
}

/**
 * The deletion of a partner (`admin delete-user USER_ID --confirm`, the operator console's Delete): removes a user and everything of theirs, its test side's included (counted
 * together in the report), in this order:
 * 1. The user is disabled and its keys revoked, and every API process told: its requests answer 401 from then on.
 * 2. It waits for the requests that passed the key check before that to finish (their writes would otherwise land
 *    after the rows they hang on are gone, and answer 500).
 * 3. Its records still in the evidence stream leave it; the worker's drain skips the records of a user that no
 *    longer exists, waiting for a deletion under way, so none arrives afterwards.
 * 4. PostgreSQL, in one transaction that each owning module's repository takes part in (every table holding a
 *    user's rows cascades from users; verification records are deleted by user id).
 * 5. Redis, last, so that it takes what was written meanwhile too: every key under the prefix that names the user
 *    or holds one of its keys (console sessions hold a key's hash), every member of a set, sorted set or list and
 *    every field of a hash naming either (JSON members such as payers and charge intents included), the BullMQ jobs
 *    whose hash names the user, and the stream entries naming it.
 */
@Injectable()
export class UserDeletion {
  /** The longest a request that passed the key check may still write: its answer's deadline, then its last statement. */
  private readonly settleMs: number;

  constructor(
    private readonly users: AuthRepository,
    private readonly batches: BatchRepository,
    private readonly watchlist: WatchlistRepository,
    private readonly webhooks: WebhookRepository,
    private readonly events: EventsService,
    private readonly quota: QuotaRepository,
    private readonly evidence: EvidenceRepository,
    private readonly activity: ActivityLog,
    private readonly redis: RedisStore,
    private readonly keyChanges: KeyChanges,
    private readonly config: AppConfig,
  ) {
    this.settleMs = config.get('VERIFY_TIMEOUT_MS') + config.get('DATABASE_STATEMENT_TIMEOUT_MS');
  }

  /** What deleting the user would remove; null when there is no such user. */
  async footprint(userId: string): Promise<UserFootprint | null> {
    if (!(await this.users.userExists(userId))) return null;
    return this.count(await this.users.sides(userId));
  }

  /** Deletes the user; null when there is no such user. */
  async delete(userId: string): Promise<UserDeletionReport | null> {
    const stopped = await this.users.stopUser(userId);
    if (stopped.length === 0) return null;
    for (const side of stopped) await this.keyChanges.publish(side);
    await sleep(this.settleMs);
    const namingStopped = namer(stopped);
    await forgetInStream(this.redis.client, evidenceStreamKey(this.redis), (fields) => fields.some(namingStopped));
    const deleted = await this.users.transaction(async (manager) => {
      const sides = await this.users.sides(userId, manager);
      if (sides.length === 0) return null;
      const footprint = await this.count(sides, manager);
      const keyHashes = await this.users.keyHashes(manager, sides);
      const watched = await this.watchlist.watchedBy(manager, sides);
      // The test side goes with the user (its rows cascade), and with it its own world of watched numbers' states.
      const worlds = await this.users.testWorlds(manager, userId);
      await this.evidence.deleteUserRows(manager, sides);
      await this.users.deleteUser(manager, userId);
      await this.watchlist.forgetDeletedWatchers(manager, watched, worlds);
      return { footprint, keyHashes, sides };
    });
    if (deleted === null) return null;
    const redisKeys = await this.forgetInRedis([...deleted.sides, ...deleted.keyHashes]);
    for (const side of deleted.sides) await this.keyChanges.publish(side);
    return { userId, deletedAt: new Date().toISOString(), deleted: { ...deleted.footprint, redisKeys } };
  }

  /** The users' rows of each kind, each owner's counts in the report's order; in the caller's transaction when given one. */
  private async count(userIds: string[], manager?: EntityManager): Promise<UserFootprint> {
    return {
      ...(await this.users.countUserRows(userIds, manager)),
      ...(await this.batches.countUserRows(userIds, manager)),
      ...(await this.watchlist.countUserRows(userIds, manager)),
      ...(await this.webhooks.countUserRows(userIds, manager)),
      ...(await this.events.countUserRows(userIds, manager)),
      ...(await this.quota.countUserRows(userIds, manager)),
      ...(await this.evidence.countUserRows(userIds, manager)),
      ...(await this.activity.countUserRows(userIds, manager)),
    };
  }

  /**
   * Deletes the keys whose name holds one of `names` (the users' ids, their keys' hashes) and the BullMQ jobs whose
   * hash does, and takes every member, field or stream entry holding one out of the rest; how many keys it deleted.
   */
  private async forgetInRedis(names: string[]): Promise<number> {
    const client = this.redis.client;
    const nodes = client instanceof Cluster ? client.nodes('master') : [client];
    const jobs = new BullJobs(this.config);
    const naming = namer(names);
    let deleted = 0;
    try {
      for (const node of nodes) {
        for await (const keys of scanPrefix(node, this.redis.key(''))) {
          for (const key of keys) {
            if (naming(key)) deleted += await client.del(key);
            else deleted += await forgetInValue(client, key, naming, jobs);
          }
        }
      }
    } finally {
      await jobs.close();
    }
    return deleted;
  }
}

/** Takes what names the users out of one key's value, by its type; 1 when that deleted the key itself. */
async function forgetInValue(client: Redis | Cluster, key: string, naming: (text: string) => boolean, jobs: BullJobs): Promise<number> {
  switch (await client.type(key)) {
    case 'set': {
      const members = (await collect(client.sscanStream(key, { count: 1000 }))).filter(naming);
      if (members.length > 0) await client.srem(key, ...members);
      return 0;
    }
    case 'zset': {
      const members = everyOther(await collect(client.zscanStream(key, { count: 1000 }))).filter(naming);
      if (members.length > 0) await client.zrem(key, ...members);
      return 0;
    }
    case 'list':
      for (const member of new Set((await client.lrange(key, 0, -1)).filter(naming))) await client.lrem(key, 0, member);
      return 0;
    case 'hash': {
      const fields = await client.hgetall(key);
      if (!Object.entries(fields).some(([field, value]) => naming(field) || naming(value))) return 0;
      if (await jobs.remove(client, key, fields)) return 1;
      await client.hdel(key, ...Object.keys(fields).filter((field) => naming(field) || naming(fields[field])));
      return 0;
    }
    case 'stream':
      await forgetInStream(client, key, (fields) => fields.some(naming));
      return 0;
    case 'string': {
      const value = await client.get(key);
      return value !== null && naming(value) ? client.del(key) : 0;
    }
    default:
      return 0;
  }
}

/**
 * The BullMQ jobs of the deleted user (a test side's lookups, its re-checks), removed through their queue so that no
 * list, set or deduplication key keeps their ids. A job running still (locked) loses its hash all the same: its
 * worker then fails to finish it, which nobody is left to hear of.
 */
class BullJobs {
  private readonly prefix: string;
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly config: AppConfig) {
    this.prefix = bullPrefix(config.get('REDIS_PREFIX'));
  }

  /** Removes the job whose hash this is (key and fields); false when it is not a job's hash. */
  async remove(client: Redis | Cluster, key: string, fields: Record<string, string>): Promise<boolean> {
    const job = bullJobOf(key, this.prefix, fields);
    if (job === null) return false;
    if ((await this.queue(job.queue).remove(job.jobId)) === 0) await client.del(key);
    return true;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: failFastConnection(redisConnectionSettings(this.config)), prefix: this.prefix });
      // A Redis failure rejects the removal that met it; without a listener BullMQ would also print each with its stack.
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }
}

/** Deletes the entries of a stream whose fields `picks` (verification records not yet drained, naming the users). */
async function forgetInStream(client: Redis | Cluster, key: string, picks: (fields: string[]) => boolean): Promise<void> {
  for (let after = '-'; ;) {
    const entries = await client.xrange(key, after, '+', 'COUNT', 1000);
    const picked = entries.filter(([, fields]) => picks(fields)).map(([id]) => id);
    if (picked.length > 0) await client.xdel(key, ...picked);
    if (entries.length < 1000) return;
    after = `(${entries[entries.length - 1][0]}`;
  }
}

/** Every item a SCAN-family stream yields, in one array. */
async function collect(stream: AsyncIterable<string[]>): Promise<string[]> {
  const items: string[] = [];
  for await (const page of stream) items.push(...page);
  return items;
}

/** The members of a ZSCAN's member, score pairs. */
function everyOther(pairs: string[]): string[] {
  return pairs.filter((_, index) => index % 2 === 0);
}

/** Pages of the keys under `prefix` on one node. */
async function* scanPrefix(node: Redis, prefix: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) yield keys;
    cursor = next;
  } while (cursor !== '0');
}
