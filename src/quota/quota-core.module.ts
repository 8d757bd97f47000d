import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RedisScriptsModule } from '../redis/redis-scripts.module';
import { markCharged } from './charged-markers.script';
import { QuotaUsage } from './quota-usage.entity';
import { QuotaRepository } from './quota.repository';
import { QuotaService } from './quota.service';

/**
 * Charging and refunding, without the usage route: what the worker's lookups need. The route's module (QuotaModule)
 * brings the API-key guard, whose module declares controllers the worker would load for nothing.
 */
@Module({
  imports: [RedisScriptsModule.forFeature([markCharged]), TypeOrmModule.forFeature([QuotaUsage])],
  providers: [QuotaService, QuotaRepository],
  exports: [QuotaService],
})
export class QuotaCoreModule {}
