import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { describeEvictionPolicy } from './eviction-policy';
import type { RedisClient } from './redis-client-type';
import { createStoreClient, redisConnectionSettings } from './redis-clients';

/** The Redis client for our own keys (cache, idempotency), every key under REDIS_PREFIX. */
@Injectable()
export class RedisStore implements OnModuleInit, OnApplicationShutdown {
  readonly client: RedisClient;
  private readonly prefix: string;

  constructor(@Inject(AppConfig) config: AppConfig, @Inject(RedisOutageLog) outages: RedisOutageLog) {
    // Commands issued in the same tick (many requests arrive together under load) go out in one socket
    // write: each write is a system call, and one per request was 8 % of the API's CPU.
    this.client = createStoreClient(redisConnectionSettings(config));
    this.prefix = config.get('REDIS_PREFIX');
    outages.watchClient(this.client);
  }

  /**
   * Without an offline queue, commands sent before the first connection would fail: start connected.
   * Then warns, once per process, when this Redis may evict our keys (describeEvictionPolicy); an INFO
   * that fails (a proxy or ACL that forbids it) reads as a policy not reported.
   */
  async onModuleInit(): Promise<void> {
    // Not events.once: it would reject on the first connection error, and Redis may come up later.
    if (this.client.status !== 'ready') await new Promise((resolve) => this.client.once('ready', resolve));
    const warning = describeEvictionPolicy(await this.client.info('memory').catch(() => ''));
    if (warning !== null) new Logger('Redis').warn(warning);
  }

  key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/**
 * The queues' shared connection. On a cluster it is a client that BullMQ uses but leaves open (it did not
 * create it), so it is closed here, after the queues (Nest shuts modules down importers first).
 */
