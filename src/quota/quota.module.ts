import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { QuotaUsage } from './quota-usage.entity';
import { QuotaController } from './quota.controller';
import { QuotaRepository } from './quota.repository';
import { QuotaService } from './quota.service';
import { markCharged } from './charged-markers.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

@Module({
  imports: [RedisScriptsModule.forFeature([markCharged]), AuthModule, TypeOrmModule.forFeature([QuotaUsage])],
  controllers: [QuotaController],
  providers: [QuotaService, QuotaRepository],
  exports: [QuotaService],
})
export class QuotaModule {}
