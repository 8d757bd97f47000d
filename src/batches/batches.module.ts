import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { LookupsModule } from '../lookups/lookups.module';
import { SecretsModule } from '../secrets/secrets.module';
import { HoldersModule } from '../holders/holders.module';
import { BatchDispatch } from './batch-dispatch';
import { BatchHolderChecks } from './batch-holder-checks';
import { BatchRetention } from './batch-retention';
import { BatchSettlement } from './batch-settlement';
import { BatchRepository } from './batch.repository';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

/** Roster checks (API side): items go through the lookups module's queue. */
@Module({
  imports: [AuthModule, QuotaModule, LookupsModule, SecretsModule, HoldersModule],
  controllers: [BatchesController],
  providers: [BatchesService, BatchRepository, BatchDispatch, BatchSettlement, BatchHolderChecks, BatchRetention],
  exports: [BatchesService],
})
export class BatchesModule {}
