import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { LookupsModule } from '../lookups/lookups.module';
import { BatchRetention } from './batch-retention';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

/** Roster checks (API side): items go through the lookups module's queue. */
@Module({
  imports: [AuthModule, QuotaModule, LookupsModule],
  controllers: [BatchesController],
  providers: [BatchesService, BatchRetention],
})
export class BatchesModule {}
