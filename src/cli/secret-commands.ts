import { INestApplicationContext } from '@nestjs/common';
import { BatchRepository } from '../batches/batch.repository';
import { OperatorTotpSecrets } from '../operator-console/operator-totp-secrets';
import { HolderDataReseal } from '../secrets/holder-data-reseal';
import { SecretReencryption } from '../secrets/secret-reencryption';
import { WatchlistRepository } from '../watchlist/watchlist.repository';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { AdminCommand } from './admin-grammar';

/** After a key rotation: webhook signing secrets (and operators' TOTP secrets) and sealed holder data, each rewritten under the first key of its ring. */
export async function runSecretCommand(
  app: INestApplicationContext,
  { command }: Extract<AdminCommand, { command: 'reencrypt-webhook-secrets' | 'reseal-holder-data' }>,
): Promise<unknown> {
  if (command === 'reencrypt-webhook-secrets') {
    // Operators' TOTP secrets are sealed with the same ring: dropping an old key must not lock operators out.
    const reencryption = app.get(SecretReencryption);
    const webhooks = await reencryption.reencryptAll(app.get(WebhookRepository));
    return { ...webhooks, operatorTotpSecrets: await reencryption.reencryptAll(app.get(OperatorTotpSecrets)) };
  }
  return app.get(HolderDataReseal).resealAll([app.get(WatchlistRepository).sealedDates, app.get(BatchRepository).sealedDates]);
}
