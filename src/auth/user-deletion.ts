import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Cluster, Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { RedisStore } from '../redis/redis.module';
import { KeyChanges } from './key-changes';

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

/** The rows of users $1 (a user and its test side). */
const FOOTPRINT = `
  SELECT (SELECT count(*)::int FROM api_keys WHERE user_id = ANY ($1)) AS "apiKeys",
         (SELECT count(*)::int FROM batches WHERE user_id = ANY ($1)) AS "batches",
         (SELECT count(*)::int FROM batch_items i JOIN batches b ON b.id = i.batch_id WHERE b.user_id = ANY ($1)) AS "batchItems",
         (SELECT count(*)::int FROM watch_entries WHERE user_id = ANY ($1)) AS "watchEntries",
         (SELECT count(*)::int FROM webhook_endpoints WHERE user_id = ANY ($1)) AS "webhookEndpoints",
         (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.user_id = ANY ($1)) AS "webhookDeliveries",
         (SELECT count(*)::int FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
                                JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.user_id = ANY ($1)) AS "webhookAttempts",
         (SELECT count(*)::int FROM events WHERE user_id = ANY ($1)) AS "events",
         (SELECT count(*)::int FROM quota_charges WHERE user_id = ANY ($1)) AS "quotaCharges",
         (SELECT count(*)::int FROM quota_usage WHERE user_id = ANY ($1)) AS "quotaUsage",
         (SELECT count(*)::int FROM verification_records WHERE user_id = ANY ($1)) AS "verificationRecords"`;

/** The user and its test side, if it has one: delete-user deletes both. */
const SIDES = 'SELECT id FROM users WHERE id = $1 OR live_user_id = $1 ORDER BY mode';

/**
 * `keys delete-user USER_ID --confirm`: removes a user and everything of theirs, its test side's included (counted
 * together in the report). PostgreSQL first, in one
 * transaction (every table holding a user's rows cascades from users); then every Redis key under the prefix that
 * names the user or holds one of its keys (console sessions hold a key's hash), and the user's id wherever a shared
 * set or list holds it. Last, every API process forgets the user's keys.
 */
@Injectable()
export class UserDeletion {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisStore,
    private readonly keyChanges: KeyChanges,
  ) {}

  /** What deleting the user would remove; null when there is no such user. */
  async footprint(userId: string): Promise<UserFootprint | null> {
    const [{ exists }] = await this.dataSource.query<{ exists: boolean }[]>('SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS exists', [userId]);
    if (!exists) return null;
    const sides = (await this.dataSource.query<{ id: string }[]>(SIDES, [userId])).map((row) => row.id);
    return (await this.dataSource.query<UserFootprint[]>(FOOTPRINT, [sides]))[0];
  }

  /** Deletes the user; null when there is no such user. */
  async delete(userId: string): Promise<UserDeletionReport | null> {
    const deleted = await this.dataSource.transaction(async (manager) => {
      const sides = (await manager.query<{ id: string }[]>(`${SIDES} FOR UPDATE`, [userId])).map((row) => row.id);
      if (sides.length === 0) return null;
      const [footprint] = await manager.query<UserFootprint[]>(FOOTPRINT, [sides]);
      const keyHashes = (await manager.query<{ key_hash: string }[]>('SELECT key_hash FROM api_keys WHERE user_id = ANY ($1)', [sides])).map(
        (row) => row.key_hash,
      );
      const watched = (
        await manager.query<{ licence_number: string }[]>('SELECT licence_number FROM watch_entries WHERE user_id = ANY ($1)', [sides])
      ).map((row) => row.licence_number);
      // The test side goes with the user (its rows cascade), and with it its own world of watched numbers' states.
      const worlds = (await manager.query<{ id: string }[]>(`SELECT id FROM users WHERE live_user_id = $1 OR (id = $1 AND mode = 'test')`, [userId])).map(
        (row) => row.id,
      );
      // Records name their user but do not hang on the users row (they are written from a stream that may outlive it).
      await manager.query('DELETE FROM verification_records WHERE user_id = ANY ($1)', [sides]);
      await manager.query('DELETE FROM users WHERE id = $1', [userId]);
      // A number nobody watches any more starts its retention, as when its last watcher removes it.
      await manager.query(
        `UPDATE licence_states s SET unwatched_since = now()
          WHERE s.world = '00000000-0000-0000-0000-000000000000' AND s.licence_number = ANY ($1) AND s.unwatched_since IS NULL
            AND NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.world = s.world AND w.licence_number = s.licence_number)`,
        [watched],
      );
      await manager.query('DELETE FROM licence_states WHERE world = ANY ($1)', [worlds]);
      return { footprint, keyHashes, sides };
    });
    if (deleted === null) return null;
    const redisKeys = await this.forgetInRedis(deleted.sides, deleted.keyHashes);
    for (const side of deleted.sides) await this.keyChanges.publish(side);
    return { userId, deletedAt: new Date().toISOString(), deleted: { ...deleted.footprint, redisKeys } };
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
