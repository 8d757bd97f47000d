import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { VerificationModule } from '../verification/verification.module';
import { BatchRetention } from './batch-retention';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

/** Roster checks (API side): items go through the verification module's lookup queue. */
@Module({
  imports: [AuthModule, QuotaModule, VerificationModule],
  controllers: [BatchesController],
  providers: [BatchesService, BatchRetention],
})
export class BatchesModule {}
