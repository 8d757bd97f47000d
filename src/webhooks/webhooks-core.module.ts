import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ActivityModule } from '../activity/activity.module';
import { EventsCoreModule } from '../events/events-core.module';
import { RedisScriptsModule } from '../redis/redis-scripts.module';
import { SecretsModule } from '../secrets/secrets.module';
import { WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { EndpointsService } from './endpoints.service';
import { ManualSendLimit } from './manual-send-limit';
import { takeManualSend } from './manual-sends.script';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookUrlCheck } from './webhook-url-check';
import { WebhookRepository } from './webhook.repository';

const DELIVERY_QUEUE = BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE });

/**
 * Webhook endpoints and the dispatcher that queues deliveries, without the routes: what the worker's re-checks, alerts
 * and deliveries need. The routes' module (WebhooksModule) brings the API-key guard and its controllers.
 */
@Module({
  imports: [RedisScriptsModule.forFeature([takeManualSend]), ActivityModule, EventsCoreModule, SecretsModule, DELIVERY_QUEUE],
  providers: [EndpointsService, WebhookDispatcher, WebhookRepository, ManualSendLimit, WebhookUrlCheck],
  exports: [EndpointsService, WebhookDispatcher, WebhookRepository, WebhookUrlCheck, SecretsModule, DELIVERY_QUEUE],
})
export class WebhooksCoreModule {}
