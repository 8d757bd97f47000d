import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
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

/** An endpoint's stored signing secrets, as read. */
export interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

/** The stored secrets, served by the module that owns them (webhooks' repository). */
export interface SealedSecretRows {
  /** up to `limit` endpoints' secrets in id order, after id `after` */
  secretsPage(after: string, limit: number): Promise<StoredSecrets[]>;
  /** stores the resealed secrets in the caller's transaction if the endpoint still holds `read`'s; false otherwise */
  replaceSecrets(manager: EntityManager, read: StoredSecrets, secret: string, previousSecret: string | null): Promise<boolean>;
}

/** `admin reencrypt-webhook-secrets`: moves every stored signing secret to the first key, so older keys can be dropped. */
@Injectable()
export class SecretReencryption {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
  ) {}

  /** Batches in id order, each in its own transaction; running it again changes nothing. */
  async reencryptAll(endpoints: SealedSecretRows): Promise<ReencryptionReport> {
    const report: ReencryptionReport = { reencrypted: 0, alreadyCurrent: 0, undecryptable: 0, changedMeanwhile: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await endpoints.secretsPage(after, BATCH_SIZE);
      if (rows.length === 0) return report;
      await this.dataSource.transaction(async (manager) => {
        for (const row of rows) {
          const secret = resealWithFirstKey(row.secret, this.secrets.keyring);
          const previous = row.previousSecret === null ? null : resealWithFirstKey(row.previousSecret, this.secrets.keyring);
          const results = previous === null ? [secret] : [secret, previous];
          const previousAfter = row.previousSecret === null || previous === null ? null : storedAfter(row.previousSecret, previous);
          if (results.some((result) => result.kind === 'resealed')) {
            // Only if nobody rotated the secret since it was read: a rotation seals with the first key anyway.
            if (!(await endpoints.replaceSecrets(manager, row, storedAfter(row.secret, secret), previousAfter))) {
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
