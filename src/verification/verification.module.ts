import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { IdempotencyStore } from './idempotency-store';
import { LookupAdmission } from '../lookups/lookup-admission';
import { LookupPayers } from '../lookups/lookup-payers';
import { LookupQueue } from '../lookups/lookup-queue';
import { LookupSettlement } from '../lookups/lookup-settlement';
import { ResultCache } from '../lookups/result-cache';
import { VerificationController } from './verification.controller';
import { REGISTER_LOOKUP_QUEUE } from '../lookups/lookups.queue';
import { VerificationService } from './verification.service';

/** The API side of verification: it produces lookup jobs and never runs them. */
@Module({
  imports: [AuthModule, QuotaModule, BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE })],
  controllers: [VerificationController],
  providers: [VerificationService, ResultCache, IdempotencyStore, LookupPayers, LookupQueue, LookupAdmission, LookupSettlement],
  // The one lookup path, for every other caller of the register (batches).
  exports: [LookupQueue, LookupPayers, LookupSettlement, ResultCache, LookupAdmission],
})
export class VerificationModule {}
