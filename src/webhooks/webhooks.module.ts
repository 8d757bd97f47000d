import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventsModule } from '../events/events.module';
import { OpenApiWebhooks } from '../http/openapi-webhooks';
import { SecretsModule } from '../secrets/secrets.module';
import { WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { EndpointsService } from './endpoints.service';
import { ManualSendLimit } from './manual-send-limit';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WEBHOOK_DOCS } from './webhook-docs';
import { WebhookUrlCheck } from './webhook-url-check';
import { WebhookRepository } from './webhook.repository';
import { WebhooksController } from './webhooks.controller';
import { takeManualSend } from './manual-sends.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

const DELIVERY_QUEUE = BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE });

/** Webhook endpoints and the dispatcher that queues deliveries (both processes); only WebhooksWorkerModule sends them. */
@Module({
  imports: [RedisScriptsModule.forFeature([takeManualSend]), AuthModule, EventsModule, SecretsModule, DELIVERY_QUEUE],
  controllers: [WebhooksController],
  // The webhooks section of the OpenAPI document (src/http/openapi.ts) describes what this module sends.
  providers: [
    EndpointsService,
    WebhookDispatcher,
    WebhookRepository,
    ManualSendLimit,
    WebhookUrlCheck,
    { provide: OpenApiWebhooks, useValue: WEBHOOK_DOCS },
  ],
  exports: [EndpointsService, WebhookDispatcher, WebhookRepository, WebhookUrlCheck, SecretsModule, DELIVERY_QUEUE],
})
export class WebhooksModule {}
