import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { RedisClient } from '../redis/redis-client-type';
import { duplicateClient } from '../redis/redis-clients';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { RedisStore } from '../redis/redis.module';

/**
 * Tells every API process that a user's keys or plan changed (a new key, revocation, quota, rate, disabled or
 * enabled), so that each drops what it cached about that user's keys at once, and nothing else. Redis pub/sub keeps
 * no messages: a process that is disconnected when one is sent falls back to the cache's TTL.
 */
@Injectable()
export class KeyChanges implements OnModuleDestroy {
  private readonly channel: string;
  private subscriber: RedisClient | null = null;

  constructor(
    private readonly redis: RedisStore,
    private readonly outages: RedisOutageLog,
  ) {
    this.channel = redis.key('key-changes');
  }

  /** Call after the change is committed, or a process could cache the old state again. */
  async publish(userId: string): Promise<void> {
    await this.redis.client.publish(this.channel, userId);
  }

  /**
   * Calls onChange with the user id of every change. onConnected runs at every (re)connection,
   * because messages sent while this process was disconnected are lost.
   */
  async subscribe(onChange: (userId: string) => void, onConnected: () => void): Promise<void> {
    // A subscription waits for its connection, and ioredis renews it after each reconnection.
    const subscriber = duplicateClient(this.redis.client, { enableOfflineQueue: true });
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, userId: string) => onChange(userId));
    subscriber.on('ready', onConnected);
    this.outages.watchClient(subscriber);
    await subscriber.subscribe(this.channel);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
