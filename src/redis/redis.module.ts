import { BullModule } from '@nestjs/bullmq';
import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ConnectionOptions } from 'bullmq';
import { Cluster } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { activeTracing } from '../tracing/tracing';
import { RedisBroadcasts } from './redis-broadcasts';
import { RedisStore } from './redis-store';
import { RedisOutageWatch } from './redis-outage-watch';
import { bullPrefix, failFastConnection, redisConnectionSettings } from './redis-clients';

export { blockingConnection } from './redis-clients';
export { RedisStore } from './redis-store';

@Injectable()
class QueueConnection implements OnApplicationShutdown {
  readonly options: ConnectionOptions;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.options = failFastConnection(redisConnectionSettings(config));
  }

  onApplicationShutdown(): void {
    if (this.options instanceof Cluster) this.options.disconnect();
  }
}

/** Redis for both processes: our key-value store and BullMQ's root connection (queues; workers get their own). */
@Global()
@Module({
  imports: [
    DiscoveryModule,
    BullModule.forRootAsync({
      extraProviders: [QueueConnection],
      inject: [AppConfig, QueueConnection],
      useFactory: (config: AppConfig, connection: QueueConnection) => ({
        connection: connection.options,
        prefix: bullPrefix(config.get('REDIS_PREFIX')),
        telemetry: activeTracing()?.queueTelemetry,
      }),
    }),
  ],
  providers: [RedisStore, RedisBroadcasts, RedisOutageWatch, { provide: RedisOutageLog, useFactory: () => new RedisOutageLog(new Logger('Redis')) }],
  exports: [RedisStore, RedisBroadcasts, RedisOutageLog, BullModule],
})
export class RedisModule {}
