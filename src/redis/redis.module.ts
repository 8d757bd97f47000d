import { BullModule } from '@nestjs/bullmq';
import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { RedisOptions as BullRedisOptions } from 'bullmq';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { AppSettings } from '../config/env.schema';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { describeEvictionPolicy } from './eviction-policy';
import { RedisOutageWatch } from './redis-outage-watch';
import { blockingRedisOptions, failFastRedisOptions } from './redis-options';

type RedisSettings = Pick<AppSettings, 'REDIS_URL' | 'DEPENDENCY_TIMEOUT_MS'>;

/** BullMQ connection for queues that add and read jobs on behalf of requests: fails fast. */
export function failFastConnection(settings: RedisSettings): BullRedisOptions {
  return { url: settings.REDIS_URL, ...failFastRedisOptions(settings.DEPENDENCY_TIMEOUT_MS) };
}

/** BullMQ connection for workers and queue events, which block on Redis and must ride out outages. */
export function blockingConnection(settings: RedisSettings): BullRedisOptions {
  return { url: settings.REDIS_URL, ...blockingRedisOptions(settings.DEPENDENCY_TIMEOUT_MS) };
}

/** The Redis client for our own keys (cache, idempotency), every key under REDIS_PREFIX. */
@Injectable()
export class RedisStore implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis;
  private readonly prefix: string;

  constructor(@Inject(AppConfig) config: AppConfig, @Inject(RedisOutageLog) outages: RedisOutageLog) {
    // Commands issued in the same tick (many requests arrive together under load) go out in one socket
    // write: each write is a system call, and one per request was 8 % of the API's CPU.
    this.client = new Redis(config.get('REDIS_URL'), {
      ...failFastRedisOptions(config.get('DEPENDENCY_TIMEOUT_MS')),
      enableAutoPipelining: true,
    });
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

/** Redis for both processes: our key-value store and BullMQ's root connection (queues; workers get their own). */
@Global()
@Module({
  imports: [
    DiscoveryModule,
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: failFastConnection({ REDIS_URL: config.get('REDIS_URL'), DEPENDENCY_TIMEOUT_MS: config.get('DEPENDENCY_TIMEOUT_MS') }),
        prefix: `${config.get('REDIS_PREFIX')}:bull`,
      }),
    }),
  ],
  providers: [RedisStore, RedisOutageWatch, { provide: RedisOutageLog, useFactory: () => new RedisOutageLog(new Logger('Redis')) }],
  exports: [RedisStore, RedisOutageLog, BullModule],
})
export class RedisModule {}
