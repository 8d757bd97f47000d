import { Module } from '@nestjs/common';
import { AuthCoreModule } from '../auth/auth-core.module';
import { QuotaCoreModule } from '../quota/quota-core.module';
import { LookupService } from './lookup.service';
import { LookupsCoreModule } from './lookups-core.module';

/**
 * The one road of every register lookup, for both processes: LookupService, its only export for lookups, admits,
 * charges, queues (single flight, users taking turns), waits and refunds. Its parts (queue, pending lists, live
 * places, payers, settlement, cache, breaker) stay inside. It never runs a lookup: LookupsWorkerModule does, in the
 * worker.
 */
@Module({
  imports: [LookupsCoreModule, QuotaCoreModule, AuthCoreModule],
  providers: [LookupService],
  exports: [LookupService],
})
export class LookupsModule {}
