import { DynamicModule, Module } from '@nestjs/common';
import { ActivityWorkerModule } from './activity/activity-worker.module';
import { ClockModule } from './clock/clock.module';
import { TracingModule } from './tracing/tracing.module';
import { AppConfigModule } from './config/app-config.module';
import { AppSettings } from './config/env.schema';
import { DatabaseModule } from './database/database.module';
import { VerificationRecordsWorkerModule } from './verification-records/verification-records-worker.module';
import { WorkerHealthModule } from './health/worker-health.module';
import { LookupsWorkerModule } from './lookups/lookups-worker.module';
import { MetricsModule } from './metrics/metrics.module';
import { RedisModule } from './redis/redis.module';
import { RegisterWatchModule } from './register-watch/register-watch.module';
import { WatchlistWorkerModule } from './watchlist/watchlist-worker.module';
import { WebhooksWorkerModule } from './webhooks/webhooks-worker.module';

/**
 * Worker root: no Nest HTTP (only a small operators' listener). Only the worker modules provide
 * processors (lookups, re-checks, webhook deliveries) and the register watch, so the API can never consume jobs.
 */
@Module({})
export class WorkerModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        AppConfigModule.forRoot(settings),
        ClockModule,
        TracingModule,
        DatabaseModule,
        RedisModule,
        MetricsModule,
        WorkerHealthModule,
        LookupsWorkerModule,
        WatchlistWorkerModule,
        WebhooksWorkerModule,
        RegisterWatchModule,
        VerificationRecordsWorkerModule,
        ActivityWorkerModule,
      ],
    };
  }
}
