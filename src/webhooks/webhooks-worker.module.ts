import { Module } from '@nestjs/common';
import { DeliveryProcessor } from './delivery.processor';
import { EndpointLeases } from './endpoint-leases';
import { WebhooksCoreModule } from './webhooks-core.module';
import { releaseEndpointLease, takeEndpointLease } from './endpoint-leases.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** Worker only: sends the queued webhook deliveries. */
@Module({
  imports: [RedisScriptsModule.forFeature([releaseEndpointLease, takeEndpointLease]), WebhooksCoreModule],
  providers: [DeliveryProcessor, EndpointLeases],
})
export class WebhooksWorkerModule {}
