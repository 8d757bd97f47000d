import { Injectable } from '@nestjs/common';
import { Cluster, Redis } from 'ioredis';
import { EntityManager } from 'typeorm';
import { AuthRepository } from './auth/auth.repository';
import { KeyChanges } from './auth/key-changes';
import { BatchRepository } from './batches/batch.repository';
import { EventsService } from './events/events.service';
import { EvidenceRepository } from './evidence/evidence.repository';
import { QuotaRepository } from './quota/quota.repository';
import { RedisStore } from './redis/redis.module';
import { WatchlistRepository } from './watchlist/watchlist.repository';
import { WebhookRepository } from './webhooks/webhook.repository';

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
}

export interface UserDeletionReport {
  userId: string;
  deletedAt: string;
  deleted: UserFootprint & { redisKeys: number };
}

/**
 * `keys delete-user USER_ID --confirm`: removes a user and everything of theirs, its test side's included (counted
 * together in the report). PostgreSQL first, in one transaction that each owning module's repository takes part in
 * (every table holding a user's rows cascades from users); then every Redis key under the prefix that
 * names the user or holds one of its keys (console sessions hold a key's hash), and the user's id wherever a shared
 * set or list holds it. Last, every API process forgets the user's keys.
 */
@Injectable()
export class UserDeletion {
  constructor(
    private readonly users: AuthRepository,
    private readonly batches: BatchRepository,
    private readonly watchlist: WatchlistRepository,
    private readonly webhooks: WebhookRepository,
    private readonly events: EventsService,
    private readonly quota: QuotaRepository,
    private readonly evidence: EvidenceRepository,
    private readonly redis: RedisStore,
    private readonly keyChanges: KeyChanges,
  ) {}

  /** What deleting the user would remove; null when there is no such user. */
  async footprint(userId: string): Promise<UserFootprint | null> {
    if (!(await this.users.userExists(userId))) return null;
    return this.count(await this.users.sides(userId));
  }

  /** Deletes the user; null when there is no such user. */
  async delete(userId: string): Promise<UserDeletionReport | null> {
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
    const redisKeys = await this.forgetInRedis(deleted.sides, deleted.keyHashes);
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
    };
  }

  /** Deletes the keys naming the users or holding one of their key hashes, and takes the users out of shared sets. */
  private async forgetInRedis(userIds: string[], keyHashes: string[]): Promise<number> {
    const client = this.redis.client;
    const nodes = client instanceof Cluster ? client.nodes('master') : [client];
    const names = [...userIds, ...keyHashes];
    let deleted = 0;
    for (const node of nodes) {
      for await (const keys of scanPrefix(node, this.redis.key(''))) {
        for (const key of keys) {
          if (names.some((name) => key.includes(name))) {
            deleted += await client.del(key);
            continue;
          }
          const type = await client.type(key);
          if (type === 'set') await client.srem(key, ...userIds);
          else if (type === 'zset') await client.zrem(key, ...userIds);
          else if (type === 'list') for (const userId of userIds) await client.lrem(key, 0, userId);
          else if (type === 'stream') await forgetInStream(client, key, userIds);
          else if (type === 'string' && (await stringNames(client, key, keyHashes))) deleted += await client.del(key);
        }
      }
    }
    return deleted;
  }
}

/** Deletes the entries of a stream (verification records not yet drained) any field of which names one of the users. */
async function forgetInStream(client: Redis | Cluster, key: string, userIds: string[]): Promise<void> {
  for (let after = '-'; ;) {
    const entries = await client.xrange(key, after, '+', 'COUNT', 1000);
    const naming = entries.filter(([, fields]) => fields.some((field) => userIds.some((userId) => field.includes(userId)))).map(([id]) => id);
    if (naming.length > 0) await client.xdel(key, ...naming);
    if (entries.length < 1000) return;
    after = `(${entries[entries.length - 1][0]}`;
  }
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

/** Whether a string value holds one of the key hashes (a console session signed in with one of the user's keys). */
async function stringNames(client: Redis | Cluster, key: string, keyHashes: string[]): Promise<boolean> {
  const value = await client.get(key);
  return value !== null && keyHashes.some((hash) => value.includes(hash));
}
