import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery.processor';
import { EndpointLeases } from './endpoint-leases';
import { WebhooksModule } from './webhooks.module';

/** Worker only: sends the queued webhook deliveries. */
@Module({
  imports: [WebhooksModule],
  providers: [DeliveryProcessor, EndpointLeases],
})
export class WebhooksWorkerModule {}
