import { BullModule, Processor } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { WorkerOptions } from 'bullmq';
import { BreakerModule } from './lookups/breaker/register-breaker';
import { ClockModule } from './clock/clock.module';
import { AppConfigModule } from './config/app-config.module';
import { AppSettings } from './config/env.schema';
import { WorkerHeartbeat } from './health/worker-heartbeat';
import { WorkerListener } from './health/worker-listener';
import { MetricsModule } from './metrics/metrics.module';
import { DatabaseModule } from './database/database.module';
import { EventsService } from './events/events.service';
import { QuotaService } from './quota/quota.service';
import { blockingConnection, RedisModule } from './redis/redis.module';
import { LookupPayers } from './lookups/lookup-payers';
import { LookupQueue } from './lookups/lookup-queue';
import { LookupSettlement } from './lookups/lookup-settlement';
import {
  registerClientCloserProvider,
  registerClientProvider,
} from './lookups/register-client.provider';
import { ResultCache } from './lookups/result-cache';
import { VerificationProcessor } from './lookups/lookup.processor';
import { REGISTER_LOOKUP_QUEUE } from './lookups/lookups.queue';
import { LicenceMonitor } from './watchlist/licence-monitor';
import { RecheckProcessor } from './watchlist/recheck.processor';
import { recheckBudgetPerSecond, recheckConcurrency } from './watchlist/recheck-pace';
import { WATCH_RECHECK_QUEUE } from './watchlist/recheck.queue';
import { DeliveryProcessor } from './webhooks/delivery.processor';
import { WEBHOOK_DELIVERY_QUEUE } from './webhooks/delivery.queue';
import { delayBeforeNextAttemptMs, parseRetrySchedule } from './webhooks/retry-schedule';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { WebhookSecrets } from './webhooks/webhook-secrets';

const DELIVERY_CONCURRENCY = 16;

/** Worker options from the settings; the limiter is global, shared by every worker through Redis. */
export function lookupWorkerOptions(settings: AppSettings): Partial<WorkerOptions> {
  return {
    connection: blockingConnection(settings),
    concurrency: settings.WORKER_CONCURRENCY,
    limiter: { max: settings.REGISTER_MAX_PER_SECOND, duration: 1000 },
    lockDuration: settings.WORKER_LOCK_DURATION_MS,
    stalledInterval: settings.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: 2,
  };
}

/**
 * Re-checks hold at most their share of the lookup slots, so live lookups never queue behind them,
 * and start at most their share of the register budget in any second (a limiter shared by every
 * worker through Redis), even when ticks run late and bunch up.
 */
export function recheckWorkerOptions(settings: AppSettings): Partial<WorkerOptions> {
  return {
    connection: blockingConnection(settings),
    concurrency: recheckConcurrency(settings.WORKER_CONCURRENCY, settings.WATCH_MAX_REGISTER_SHARE),
    limiter: { max: recheckBudgetPerSecond(settings.REGISTER_MAX_PER_SECOND, settings.WATCH_MAX_REGISTER_SHARE), duration: 1000 },
  };
}

/** Delivery attempts follow WEBHOOK_RETRY_SCHEDULE_SECONDS: the "schedule" backoff every delivery job names. */
function deliveryWorkerOptions(settings: AppSettings): Partial<WorkerOptions> {
  const schedule = parseRetrySchedule(settings.WEBHOOK_RETRY_SCHEDULE_SECONDS);
  return {
    connection: blockingConnection(settings),
    concurrency: DELIVERY_CONCURRENCY,
    settings: { backoffStrategy: (attemptsMade: number) => delayBeforeNextAttemptMs(schedule, attemptsMade) ?? 0 },
  };
}

/** Worker root: no Nest HTTP (only a small operators' listener); only this module provides the processors (lookups, re-checks, webhook deliveries). */
@Module({})
export class WorkerModule {
  static register(settings: AppSettings): DynamicModule {
    // @Processor's options are static metadata; applying it here lets them come from the settings.
    Processor(REGISTER_LOOKUP_QUEUE, lookupWorkerOptions(settings))(VerificationProcessor);
    Processor(WATCH_RECHECK_QUEUE, recheckWorkerOptions(settings))(RecheckProcessor);
    Processor(WEBHOOK_DELIVERY_QUEUE, deliveryWorkerOptions(settings))(DeliveryProcessor);
    return {
      module: WorkerModule,
      imports: [
        AppConfigModule,
        ClockModule,
        DatabaseModule,
        RedisModule,
        BreakerModule,
        MetricsModule,
        BullModule.registerQueue(
          { name: REGISTER_LOOKUP_QUEUE },
          { name: WATCH_RECHECK_QUEUE },
          { name: WEBHOOK_DELIVERY_QUEUE },
        ),
      ],
      providers: [
        ResultCache,
        registerClientProvider,
        registerClientCloserProvider,
        VerificationProcessor,
        WorkerHeartbeat,
        WorkerListener,
        LookupQueue,
        LookupPayers,
        LookupSettlement,
        QuotaService,
        EventsService,
        WebhookSecrets,
        WebhookDispatcher,
        LicenceMonitor,
        RecheckProcessor,
        DeliveryProcessor,
      ],
    };
  }
}
