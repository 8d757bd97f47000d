import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HolderDataProtection } from './holder-data';
import { holderDataProtection } from './holder-data.provider';
import { HolderDataReseal } from './holder-data-reseal';
import { SecretReencryption } from './secret-reencryption';
import { WebhookSecrets } from './webhook-secrets';

/**
 * Secrets at rest, one instance each per process: holder data (dates of birth, name searches) and webhook signing
 * secrets, sealed for the API and the worker, and resealed under the first key of their ring for the admin command.
 */
@Module({
  providers: [
    { provide: HolderDataProtection, inject: [AppConfig], useFactory: holderDataProtection },
    HolderDataReseal,
    WebhookSecrets,
    SecretReencryption,
  ],
  exports: [HolderDataProtection, HolderDataReseal, WebhookSecrets, SecretReencryption],
})
export class SecretsModule {}
