import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { webhookKeyring } from './keyring';
import { decryptSecret, encryptSecret, SecretKey } from './secret-box';

/** Seals signing secrets for storage with the first key of the keyring (webhookKeyring), and opens them with any. */
@Injectable()
export class WebhookSecrets {
  /** the first key seals; every key opens */
  readonly keyring: readonly SecretKey[];

  constructor(config: AppConfig) {
    const keyring = webhookKeyring({ WEBHOOK_SECRET_KEYS: config.get('WEBHOOK_SECRET_KEYS'), WEBHOOK_SECRET_KEY: config.get('WEBHOOK_SECRET_KEY') });
    if (keyring.development) {
      new Logger('Webhooks').warn(
        'WEBHOOK_SECRET_KEY is not set: webhook secrets are encrypted with a public development key; set 64 hex digits in production',
      );
    }
    this.keyring = keyring.keys;
  }

  seal(secret: string): string {
    return encryptSecret(secret, this.keyring[0]);
  }

  /** Throws UndecryptableSecretError when no configured key opens it. */
  open(stored: string): string {
    return decryptSecret(stored, this.keyring);
  }
}
