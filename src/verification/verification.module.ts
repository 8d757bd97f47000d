import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { IdempotencyStore } from './idempotency-store';
import { LookupAdmission } from './lookup-admission';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';
import { LookupSettlement } from './lookup-settlement';
import { ResultCache } from './result-cache';
import { VerificationController } from './verification.controller';
import { REGISTER_LOOKUP_QUEUE } from './verification.queue';
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
