import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LookupsModule } from '../lookups/lookups.module';
import { QuotaModule } from '../quota/quota.module';
import { IdempotencyStore } from './idempotency-store';
import { VerificationController } from './verification.controller';
import { VerificationService } from './verification.service';

/** POST /v1/licences/verify: it asks the lookups module and never runs a lookup itself. */
@Module({
  imports: [AuthModule, QuotaModule, LookupsModule],
  controllers: [VerificationController],
  providers: [VerificationService, IdempotencyStore],
  exports: [VerificationService],
})
export class VerificationModule {}
