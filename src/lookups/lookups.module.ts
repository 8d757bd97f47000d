import { Logger, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ReadinessProbe } from '../health/readiness-probe';
import { QuotaModule } from '../quota/quota.module';
import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, HolderDataProtection } from '../secrets/holder-data';
import { LookupReadiness } from './lookup-readiness';
import { LookupService } from './lookup.service';
import { LookupsCoreModule } from './lookups-core.module';

/** Name searches are sealed with HOLDER_DATA_KEY, or a development key with a warning. */
function holderDataProtection(config: AppConfig): HolderDataProtection {
  const configured = config.get('HOLDER_DATA_KEY');
  if (configured === '') {
    new Logger('HolderData').warn(
      'HOLDER_DATA_KEY is not set: dates of birth and name searches are protected with a public development key; set 64 hex digits in production',
    );
  }
  return new HolderDataProtection(configured === '' ? DEVELOPMENT_HOLDER_DATA_KEY_HEX : configured);
}

/**
 * The one road of every register lookup, for both processes: LookupService, its only export for lookups, admits,
 * charges, queues (single flight, users taking turns), waits and refunds. Its parts (queue, pending lists, live
 * places, payers, settlement, cache, breaker) stay inside. It never runs a lookup: LookupsWorkerModule does, in the
 * worker.
 */
@Module({
  imports: [LookupsCoreModule, QuotaModule],
  providers: [
    LookupService,
    { provide: HolderDataProtection, inject: [AppConfig], useFactory: holderDataProtection },
    { provide: ReadinessProbe, useClass: LookupReadiness },
  ],
  exports: [LookupService, HolderDataProtection, ReadinessProbe],
})
export class LookupsModule {}
