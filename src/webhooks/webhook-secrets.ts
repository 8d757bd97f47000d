import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { decryptSecret, DEVELOPMENT_KEY_HEX, encryptSecret } from '../secrets/secret-box';

/** Seals signing secrets for storage with WEBHOOK_SECRET_KEY, or a development key with a warning. */
@Injectable()
export class WebhookSecrets {
  private readonly keyHex: string;

  constructor(config: AppConfig) {
    const configured = config.get('WEBHOOK_SECRET_KEY');
    if (configured === '') {
      new Logger('Webhooks').warn(
        'WEBHOOK_SECRET_KEY is not set: webhook secrets are encrypted with a public development key; set 64 hex digits in production',
      );
    }
    this.keyHex = configured === '' ? DEVELOPMENT_KEY_HEX : configured;
  }

  seal(secret: string): string {
    return encryptSecret(secret, this.keyHex);
  }

  open(stored: string): string {
    return decryptSecret(stored, this.keyHex);
  }
}
