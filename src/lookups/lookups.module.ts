import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ReadinessProbe } from '../health/readiness-probe';
import { QuotaModule } from '../quota/quota.module';
import { HolderDataProtection } from '../secrets/holder-data';
import { holderDataProtection } from '../secrets/holder-data.provider';
import { LookupReadiness } from './lookup-readiness';
import { LookupService } from './lookup.service';
import { LookupsCoreModule } from './lookups-core.module';
import { TestRegisters } from './test-register';
import { UserModes } from './user-modes';

/**
 * The one road of every register lookup, for both processes: LookupService, its only export for lookups, admits,
 * charges, queues (single flight, users taking turns), waits and refunds. Its parts (queue, pending lists, live
 * places, payers, settlement, cache, breaker) stay inside. It never runs a lookup: LookupsWorkerModule does, in the
 * worker. TestRegisters, the built-in register of test users, is exported for the simulate calls (src/test-mode).
 */
@Module({
  imports: [LookupsCoreModule, QuotaModule],
  providers: [
    LookupService,
    TestRegisters,
    UserModes,
    { provide: HolderDataProtection, inject: [AppConfig], useFactory: holderDataProtection },
    { provide: ReadinessProbe, useClass: LookupReadiness },
  ],
  exports: [LookupService, TestRegisters, HolderDataProtection, ReadinessProbe],
})
export class LookupsModule {}
