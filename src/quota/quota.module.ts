import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { QuotaCharge } from './quota-charge.entity';
import { QuotaUsage } from './quota-usage.entity';
import { QuotaController } from './quota.controller';
import { QuotaService } from './quota.service';

@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([QuotaUsage, QuotaCharge])],
  controllers: [QuotaController],
  providers: [QuotaService],
  exports: [QuotaService],
})
export class QuotaModule {}
