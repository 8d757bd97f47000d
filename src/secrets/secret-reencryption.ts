import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Resealed, resealWithFirstKey } from './secret-box';
import { WebhookSecrets } from './webhook-secrets';

const BATCH_SIZE = 500;

/** Counts of stored signing secrets (current and previous ones alike). */
export interface ReencryptionReport {
  reencrypted: number;
  alreadyCurrent: number;
  /** no configured key opens them: left as they are, and their deliveries fail until a key that does is added */
  undecryptable: number;
  /** endpoints whose secret a partner rotated while this ran (the API sealed the new one): counted nowhere else */
  changedMeanwhile: number;
}

const REPORTED_AS = { resealed: 'reencrypted', current: 'alreadyCurrent', undecryptable: 'undecryptable' } as const;

/** The value to store: the resealed one, or the stored one unchanged. */
const storedAfter = (stored: string, result: Resealed): string => (result.kind === 'resealed' ? result.stored : stored);

interface EndpointSecrets {
  id: string;
  secret: string;
  previous_secret: string | null;
}

/** `keys reencrypt-webhook-secrets`: moves every stored signing secret to the first key, so older keys can be dropped. */
@Injectable()
export class SecretReencryption {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
  ) {}

  /** Batches in id order, each in its own transaction; running it again changes nothing. */
  async reencryptAll(): Promise<ReencryptionReport> {
    const report: ReencryptionReport = { reencrypted: 0, alreadyCurrent: 0, undecryptable: 0, changedMeanwhile: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.dataSource.query<EndpointSecrets[]>(
        'SELECT id, secret, previous_secret FROM webhook_endpoints WHERE id > $1 ORDER BY id LIMIT $2',
        [after, BATCH_SIZE],
      );
      if (rows.length === 0) return report;
      await this.dataSource.transaction(async (manager) => {
        for (const row of rows) {
          const secret = resealWithFirstKey(row.secret, this.secrets.keyring);
          const previous = row.previous_secret === null ? null : resealWithFirstKey(row.previous_secret, this.secrets.keyring);
          const results = previous === null ? [secret] : [secret, previous];
          const previousAfter = row.previous_secret === null || previous === null ? null : storedAfter(row.previous_secret, previous);
          if (results.some((result) => result.kind === 'resealed')) {
            // Only if nobody rotated the secret since it was read: a rotation seals with the first key anyway.
            const [, updated] = await manager.query<[unknown, number]>(
              `UPDATE webhook_endpoints SET secret = $2, previous_secret = $3
               WHERE id = $1 AND secret = $4 AND previous_secret IS NOT DISTINCT FROM $5`,
              [row.id, storedAfter(row.secret, secret), previousAfter, row.secret, row.previous_secret],
            );
            if (updated === 0) {
              report.changedMeanwhile += 1;
              continue;
            }
          }
          for (const result of results) report[REPORTED_AS[result.kind]] += 1;
        }
      });
      after = rows[rows.length - 1].id;
    }
  }
}
