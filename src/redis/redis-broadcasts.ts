import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { RedisOutageLog } from '../logging/redis-outage-log';
import type { RedisClient } from './redis-client-type';
import { duplicateClient } from './redis-clients';
import { RedisStore } from './redis-store';

interface Subscription {
  onMessage: (message: string) => void;
  onConnected: () => void;
}

/**
 * Messages to every process of the service over Redis pub/sub, on one subscriber connection per process, whatever
 * the number of channels. Redis keeps no messages: a process disconnected when one is sent misses it, so each
 * subscription says what to do at every (re)connection.
 */
@Injectable()
export class RedisBroadcasts implements OnModuleDestroy {
  private subscriber: RedisClient | null = null;
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly redis: RedisStore,
    private readonly outages: RedisOutageLog,
  ) {}

  /**
   * Tells this process's own subscription first, before anything else runs, then every process: this process's copy
   * of the message may come after it has served its caller's next request (a key just revoked answering 200 once).
   * A subscription hears its own process's messages twice, so what it does must bear repeating.
   */
  async publish(name: string, message: string): Promise<void> {
    const channel = this.redis.key(name);
    this.subscriptions.get(channel)?.onMessage(message);
    await this.redis.client.publish(channel, message);
  }

  async subscribe(name: string, onMessage: (message: string) => void, onConnected: () => void = () => undefined): Promise<void> {
    const channel = this.redis.key(name);
    this.subscriptions.set(channel, { onMessage, onConnected });
    await this.connection().subscribe(channel);
  }

  private connection(): RedisClient {
    if (this.subscriber) return this.subscriber;
    // A subscription waits for its connection, and ioredis renews it after each reconnection.
    const subscriber = duplicateClient(this.redis.client, { enableOfflineQueue: true });
    subscriber.on('message', (channel: string, message: string) => this.subscriptions.get(channel)?.onMessage(message));
    subscriber.on('ready', () => {
      for (const { onConnected } of this.subscriptions.values()) onConnected();
    });
    this.outages.watchClient(subscriber);
    this.subscriber = subscriber;
    return subscriber;
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}
