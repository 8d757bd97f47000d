import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventsModule } from '../events/events.module';
import { WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { EndpointsService } from './endpoints.service';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';

/** Webhook endpoints and the dispatcher that queues deliveries (both processes); only WebhooksWorkerModule sends them. */
@Module({
  imports: [AuthModule, EventsModule, BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE })],
  controllers: [WebhooksController],
  providers: [EndpointsService, WebhookDispatcher, WebhookSecrets],
  exports: [EndpointsService, WebhookDispatcher, WebhookSecrets],
})
export class WebhooksModule {}
