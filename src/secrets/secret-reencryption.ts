import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { resealWithFirstKey } from './secret-box';
import { WebhookSecrets } from './webhook-secrets';

const BATCH_SIZE = 500;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** Counts of the stored secrets of one kind of row (a row's every sealed column alike). */
export interface ReencryptionReport {
  reencrypted: number;
  alreadyCurrent: number;
  /** no configured key opens them: left as they are (a delivery, a sign-in or a provider call that needs them fails) */
  undecryptable: number;
  /** rows whose secret changed while this ran (the API sealed the new one with the first key): counted nowhere else */
  changedMeanwhile: number;
}

const REPORTED_AS = { resealed: 'reencrypted', current: 'alreadyCurrent', undecryptable: 'undecryptable' } as const;

/** A row's sealed values as read, in its owner's column order; null where a column holds none. */
export interface StoredSecrets {
  id: string;
  sealed: (string | null)[];
}

/** One kind of row that holds secrets sealed with the webhook secret key ring, served by the module that owns it. */
export interface SealedSecretRows {
  /** up to `limit` rows holding a secret, in id order, after id `after` */
  secretsPage(after: string, limit: number): Promise<StoredSecrets[]>;
  /** stores `resealed` in the caller's transaction, in one statement, if the row still holds `read`'s values; false otherwise */
  replaceSecrets(manager: EntityManager, read: StoredSecrets, resealed: (string | null)[]): Promise<boolean>;
}

/**
 * The SealedSecretRows of `table`, whose uuid column `id` names a row and whose text `columns` hold sealed secrets
 * (null where none): its owner names them, so that the statements of every table with sealed secrets stay one.
 */
export function sealedSecretColumns(dataSource: DataSource, table: string, id: string, columns: readonly string[]): SealedSecretRows {
  const heldSomewhere = columns.map((column) => `${column} IS NOT NULL`).join(' OR ');
  return {
    secretsPage: (after, limit) =>
      dataSource.query<StoredSecrets[]>(
        `SELECT ${id} AS id, ARRAY[${columns.join(', ')}]::text[] AS sealed FROM ${table}
          WHERE ${id} > $1 AND (${heldSomewhere}) ORDER BY ${id} LIMIT $2`,
        [after, limit],
      ),
    async replaceSecrets(manager, read, resealed) {
      const set = columns.map((column, index) => `${column} = $${index + 2}`).join(', ');
      const unchanged = columns.map((column, index) => `${column} IS NOT DISTINCT FROM $${columns.length + index + 2}`).join(' AND ');
      const [, updated] = await manager.query<[unknown, number]>(`UPDATE ${table} SET ${set} WHERE ${id} = $1 AND ${unchanged}`, [
        read.id,
        ...resealed,
        ...read.sealed,
      ]);
      return updated > 0;
    },
  };
}

/**
 * `admin reseal-secrets` (formerly `reencrypt-webhook-secrets`, still accepted): moves every secret sealed with the
 * webhook secret key ring to its first key, so that older keys can be dropped.
 */
@Injectable()
export class SecretReencryption {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
  ) {}

  /** Batches in id order, each in its own transaction, a row in one statement; running it again changes nothing. */
  async reencryptAll(rows: SealedSecretRows): Promise<ReencryptionReport> {
    const report: ReencryptionReport = { reencrypted: 0, alreadyCurrent: 0, undecryptable: 0, changedMeanwhile: 0 };
    let after = FIRST_ID;
    for (;;) {
      const page = await rows.secretsPage(after, BATCH_SIZE);
      if (page.length === 0) return report;
      await this.dataSource.transaction(async (manager) => {
        for (const row of page) {
          const results = row.sealed.map((stored) => (stored === null ? null : resealWithFirstKey(stored, this.secrets.keyring)));
          if (results.some((result) => result?.kind === 'resealed')) {
            const resealed = results.map((result, index) => (result?.kind === 'resealed' ? result.stored : row.sealed[index]));
            // Only if nobody replaced a secret since it was read: a new one is sealed with the first key anyway.
            if (!(await rows.replaceSecrets(manager, row, resealed))) {
              report.changedMeanwhile += 1;
              continue;
            }
          }
          for (const result of results) if (result !== null) report[REPORTED_AS[result.kind]] += 1;
        }
      });
      after = page[page.length - 1].id;
    }
  }
}
