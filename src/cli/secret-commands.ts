import { INestApplicationContext } from '@nestjs/common';
import { BatchRepository } from '../batches/batch.repository';
import { MemberSealedSecrets } from '../members/member-sealed-secrets';
import { OperatorTotpSecrets } from '../operator-console/operator-totp-secrets';
import { HolderDataReseal } from '../secrets/holder-data-reseal';
import { SecretReencryption } from '../secrets/secret-reencryption';
import { WatchlistRepository } from '../watchlist/watchlist.repository';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { AdminCommand } from './admin-grammar';

/**
 * After a key rotation: every secret sealed with the webhook secret key ring (reseal-secrets), or sealed holder data,
 * rewritten under the first key of its ring. Webhook signing secrets are counted at the top level, as they were
 * before the command resealed anything else, so that operators' scripts reading those counts keep working.
 */
export async function runSecretCommand(
  app: INestApplicationContext,
  { command }: Extract<AdminCommand, { command: 'reseal-secrets' | 'reseal-holder-data' }>,
): Promise<unknown> {
  if (command === 'reseal-secrets') {
    // The same ring seals operators' and members' TOTP secrets and single sign-on's client secrets: dropping an old
    // key must not lock anyone out, nor break an organisation's sign-in.
    const reencryption = app.get(SecretReencryption);
    const members = app.get(MemberSealedSecrets);
    return {
      ...(await reencryption.reencryptAll(app.get(WebhookRepository).sealedSecrets)),
      operatorTotpSecrets: await reencryption.reencryptAll(app.get(OperatorTotpSecrets).rows),
      memberTotpSecrets: await reencryption.reencryptAll(members.totp),
      singleSignOnSecrets: await reencryption.reencryptAll(members.singleSignOn),
    };
  }
  return app.get(HolderDataReseal).resealAll([app.get(WatchlistRepository).sealedDates, app.get(BatchRepository).sealedDates]);
}
