import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { RefusalsModule } from './auth/refusals.module';
import { BatchesModule } from './batches/batches.module';
import { ClockModule } from './clock/clock.module';
import { TracingModule } from './tracing/tracing.module';
import { ConsoleModule } from './console/console.module';
import { AppConfigModule } from './config/app-config.module';
import { AppSettings } from './config/env.schema';
import { DatabaseModule } from './database/database.module';
import { ErrorsModule } from './errors/errors.module';
import { ValidationModule } from './validation/validation.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { LookupReadinessModule } from './lookups/lookup-readiness.module';
import { LookupsModule } from './lookups/lookups.module';
import { MetricsModule } from './metrics/metrics.module';
import { OperatorRoutesModule } from './operator/operator-routes.module';
import { OperatorConsoleCoreModule } from './operator-console/operator-console-core.module';
import { QuotaModule } from './quota/quota.module';
import { RedisModule } from './redis/redis.module';
import { VerificationModule } from './verification/verification.module';
import { VerificationRecordsModule } from './verification-records/verification-records.module';
import { HoldersModule } from './holders/holders.module';
import { WatchlistModule } from './watchlist/watchlist.module';
import { TestModeModule } from './test-mode/test-mode.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** API root: infrastructure, then the feature modules; it produces lookup jobs and never runs them. */
@Module({})
export class AppModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(settings),
        ClockModule,
        TracingModule,
        DatabaseModule,
        ErrorsModule,
        ValidationModule,
        MetricsModule,
        RedisModule,
        AuthModule,
        RefusalsModule,
        QuotaModule,
        LookupsModule,
        VerificationModule,
        VerificationRecordsModule,
        HoldersModule,
        BatchesModule,
        WatchlistModule,
        WebhooksModule,
        TestModeModule,
        EventsModule,
        // Off with CONSOLE_ENABLED=false: no console routes at all (and the same API to compare against).
        ...(settings.CONSOLE_ENABLED ? [ConsoleModule] : []),
        HealthModule.forRoot({ imports: [LookupReadinessModule] }),
        // With OPERATOR_PORT set, the operators' listener serves these routes instead (src/operator).
        // and the operator console's pages, over these services of this app (src/operator-console).
        ...(settings.OPERATOR_PORT === null ? [OperatorRoutesModule] : [OperatorConsoleCoreModule]),
      ],
    };
  }
}
