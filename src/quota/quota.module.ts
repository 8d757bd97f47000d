import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { QuotaCharge } from './quota-charge.entity';
import { QuotaUsage } from './quota-usage.entity';
import { QuotaController } from './quota.controller';
import { QuotaService } from './quota.service';
import { VerificationOutcomes } from './verification-outcomes';

@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([QuotaUsage, QuotaCharge])],
  controllers: [QuotaController],
  providers: [QuotaService, VerificationOutcomes],
  exports: [QuotaService, VerificationOutcomes],
})
export class QuotaModule {}
