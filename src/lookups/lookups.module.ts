import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { ReadinessProbe } from '../health/readiness-probe';
import { DASHBOARD_QUEUES, DashboardQueues } from '../http/dashboard-queues';
import { QuotaModule } from '../quota/quota.module';
import { HolderDataProtection } from '../secrets/holder-data';
import { holderDataProtection } from '../secrets/holder-data.provider';
import { RegisterBreaker } from './breaker/register-breaker';
import { LookupAdmission } from './lookup-admission';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';
import { LookupQueueDepth } from './lookup-queue-depth';
import { LookupReadiness } from './lookup-readiness';
import { PendingLookups } from './pending-lookups';
import { LookupSettlement } from './lookup-settlement';
import { REGISTER_LOOKUP_QUEUE } from './lookups.queue';
import { ResultCache } from './result-cache';

/**
 * The one path of every register lookup, for both processes: it queues lookups (single flight per
 * number), admits them past the queue bound and the breaker, keeps their payers and settles them,
 * and caches results. It never runs a lookup: LookupsWorkerModule does, in the worker.
 */
@Module({
  imports: [QuotaModule, BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE })],
  providers: [
    LookupQueue,
    PendingLookups,
    LookupAdmission,
    LookupPayers,
    LookupSettlement,
    ResultCache,
    RegisterBreaker,
    LookupQueueDepth,
    { provide: HolderDataProtection, inject: [AppConfig], useFactory: holderDataProtection },
    { provide: ReadinessProbe, useClass: LookupReadiness },
    { provide: DASHBOARD_QUEUES, inject: [getQueueToken(REGISTER_LOOKUP_QUEUE)], useFactory: (queue: Queue): DashboardQueues => [queue] },
  ],
  exports: [HolderDataProtection, LookupQueue, PendingLookups, LookupAdmission, LookupPayers, LookupSettlement, ResultCache, RegisterBreaker, ReadinessProbe],
})
export class LookupsModule {}
