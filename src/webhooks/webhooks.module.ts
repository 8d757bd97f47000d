import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OpenApiWebhooks } from '../http/openapi-webhooks';
import { WEBHOOK_DOCS } from './webhook-docs';
import { WebhooksCoreModule } from './webhooks-core.module';
import { WebhooksController } from './webhooks.controller';

/** The webhook routes of the API, on WebhooksCoreModule; only WebhooksWorkerModule sends deliveries. */
@Module({
  imports: [WebhooksCoreModule, AuthModule],
  controllers: [WebhooksController],
  // The webhooks section of the OpenAPI document (src/http/openapi.ts) describes what this module sends.
  providers: [{ provide: OpenApiWebhooks, useValue: WEBHOOK_DOCS }],
  exports: [WebhooksCoreModule],
})
export class WebhooksModule {}
