import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QuotaCoreModule } from '../quota/quota-core.module';
import { RegisterBreaker } from './breaker/register-breaker';
import { LiveLookups } from './live-lookups';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';
import { LookupQueueDepth } from './lookup-queue-depth';
import { LookupSettlement } from './lookup-settlement';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';
import { PendingLookups } from './pending-lookups';
import { ResultCache } from './result-cache';
import { TestRegisters } from './test-register';
import { compareAndSet } from '../redis/compare-and-set.script';
import { takeLivePlace } from '../redis/live-places.script';
import { claimRefund, withdrawPayers } from './job-payers.script';
import { countWaitingLookups } from './waiting-lookups.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

const PARTS = [LookupQueue, PendingLookups, LiveLookups, LookupPayers, LookupSettlement, ResultCache, RegisterBreaker, TestRegisters];

/**
 * The parts of the lookup road, one instance each per process, for LookupsModule's LookupService and, in the
 * worker, LookupsWorkerModule's processor and dispatcher. Only modules of this folder import it.
 */
@Module({
  imports: [
    RedisScriptsModule.forFeature([compareAndSet, takeLivePlace, claimRefund, withdrawPayers, countWaitingLookups]),
    QuotaCoreModule,
    BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE }, { name: TEST_LOOKUP_QUEUE }),
  ],
  providers: [...PARTS, LookupQueueDepth],
  exports: [...PARTS, BullModule],
})
export class LookupsCoreModule {}
