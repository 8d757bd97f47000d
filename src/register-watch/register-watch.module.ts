import { Module } from '@nestjs/common';
import { CanaryStore } from '../lookups/canary-store';
import { LookupsModule } from '../lookups/lookups.module';
import { PageShapesModule } from '../lookups/page-shapes.module';
import { WebhooksCoreModule } from '../webhooks/webhooks-core.module';
import { RegisterWatch } from './register-watch';

/** Worker only: the register canaries and the operator alerts. */
@Module({
  imports: [LookupsModule, WebhooksCoreModule, PageShapesModule],
  // CanaryStore keeps its state in Redis, so this instance and readiness's read the same canaries.
  providers: [CanaryStore, RegisterWatch],
})
export class RegisterWatchModule {}
