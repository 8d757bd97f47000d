import { Module } from '@nestjs/common';
import { SecretReencryption } from './secret-reencryption';
import { WebhookSecrets } from './webhook-secrets';

/** Webhook signing secrets at rest: sealing for the API and the worker, reencryption for the keys command. */
@Module({
  providers: [WebhookSecrets, SecretReencryption],
  exports: [WebhookSecrets, SecretReencryption],
})
export class SigningSecretsModule {}
