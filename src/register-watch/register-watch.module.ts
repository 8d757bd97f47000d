import { Module } from '@nestjs/common';
import { LookupsModule } from '../lookups/lookups.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { RegisterWatch } from './register-watch';

/** Worker only: the register canaries and the operator alerts. */
@Module({
  imports: [LookupsModule, WebhooksModule],
  providers: [RegisterWatch],
})
export class RegisterWatchModule {}
