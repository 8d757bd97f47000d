import { BullModule, Processor } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { WorkerOptions } from 'bullmq';
import { ClockModule } from './clock/clock.module';
import { AppConfigModule } from './config/app-config.module';
import { AppSettings } from './config/env.schema';
import { WorkerHeartbeat } from './health/worker-heartbeat';
import { WorkerListener } from './health/worker-listener';
import { MetricsModule } from './metrics/metrics.module';
import { RedisModule } from './redis/redis.module';
import {
  registerClientCloserProvider,
  registerClientProvider,
} from './verification/register-client.provider';
import { ResultCache } from './verification/result-cache';
import { VerificationProcessor } from './verification/verification.processor';
import { REGISTER_LOOKUP_QUEUE } from './verification/verification.queue';

/** Worker options from the settings; the limiter is global, shared by every worker through Redis. */
export function lookupWorkerOptions(settings: AppSettings): Partial<WorkerOptions> {
  return {
    concurrency: settings.WORKER_CONCURRENCY,
    limiter: { max: settings.REGISTER_MAX_PER_SECOND, duration: 1000 },
    lockDuration: settings.WORKER_LOCK_DURATION_MS,
    stalledInterval: settings.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: 2,
  };
}

/** Worker root: no database and no Nest HTTP (only a small operators' listener); only this module provides the processor. */
@Module({})
export class WorkerModule {
  static register(settings: AppSettings): DynamicModule {
    // @Processor's options are static metadata; applying it here lets them come from the settings.
    Processor(REGISTER_LOOKUP_QUEUE, lookupWorkerOptions(settings))(VerificationProcessor);
    return {
      module: WorkerModule,
      imports: [AppConfigModule, ClockModule, RedisModule, MetricsModule, BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE })],
      providers: [
        ResultCache,
        registerClientProvider,
        registerClientCloserProvider,
        VerificationProcessor,
        WorkerHeartbeat,
        WorkerListener,
      ],
    };
  }
}
