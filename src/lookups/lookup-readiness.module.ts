import { Module } from '@nestjs/common';
import { ReadinessProbe } from '../health/readiness-probe';
import { CanaryStore } from './canary-store';
import { LookupReadiness } from './lookup-readiness';
import { LookupsCoreModule } from './lookups-core.module';
import { PageShapesModule } from './page-shapes.module';

/**
 * What GET /health/ready asks of the lookup road (its queue's connection, the breaker's phase), for HealthModule
 * alone: the root hands it over in HealthModule.forRoot, so health imports no feature and LookupsModule exports
 * only the road.
 */
@Module({
  imports: [LookupsCoreModule, PageShapesModule],
  // CanaryStore holds no state of its own (Redis does): an instance here and one in RegisterWatchModule read the same.
  providers: [CanaryStore, { provide: ReadinessProbe, useClass: LookupReadiness }],
  exports: [ReadinessProbe],
})
export class LookupReadinessModule {}
