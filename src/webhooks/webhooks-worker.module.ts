import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery.processor';
import { WebhooksModule } from './webhooks.module';

/** Worker only: sends the queued webhook deliveries. */
@Module({
  imports: [WebhooksModule],
  providers: [DeliveryProcessor],
})
export class WebhooksWorkerModule {}
