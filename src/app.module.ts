import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { BreakerModule } from './lookups/breaker/register-breaker';
import { BatchesModule } from './batches/batches.module';
import { ClockModule } from './clock/clock.module';
import { AppConfigModule } from './config/app-config.module';
import { DatabaseModule } from './database/database.module';
import { ErrorsModule } from './errors/errors.module';
import { HealthModule } from './health/health.module';
import { MetricsEndpointModule } from './metrics/metrics-endpoint.module';
import { MetricsModule } from './metrics/metrics.module';
import { QuotaModule } from './quota/quota.module';
import { RedisModule } from './redis/redis.module';
import { VerificationModule } from './verification/verification.module';
import { EventsModule } from './events/events.module';
import { WatchlistModule } from './watchlist/watchlist.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** API root: config, database, errors, auth, quota, the verification producer, batches, monitoring and health probes. */
@Module({
  imports: [
    AppConfigModule,
    ClockModule,
    DatabaseModule,
    ErrorsModule,
    MetricsModule,
    MetricsEndpointModule,
    RedisModule,
    BreakerModule,
    AuthModule,
    QuotaModule,
    VerificationModule,
    BatchesModule,
    WatchlistModule,
    WebhooksModule,
    EventsModule,
    HealthModule,
  ],
})
export class AppModule {}
