import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SealedSecretRows, StoredSecrets } from '../secrets/secret-reencryption';

/**
 * Operators' TOTP secrets, sealed with the webhook secret key ring (OperatorAccounts), as rows that
 * reencrypt-webhook-secrets reseals with the ring's first key, so that an old key can be dropped without
 * locking every operator out. An operator has one secret: no previous one.
 */
@Injectable()
export class OperatorTotpSecrets implements SealedSecretRows {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  secretsPage(after: string, limit: number): Promise<StoredSecrets[]> {
    return this.dataSource.query<StoredSecrets[]>(
      `SELECT id, totp_secret AS secret, NULL AS "previousSecret" FROM operators
        WHERE id > $1 AND totp_secret IS NOT NULL ORDER BY id LIMIT $2`,
      [after, limit],
    );
  }

  /** Only if the operator still holds the secret read (joining again seals a new one with the first key anyway). */
  async replaceSecrets(manager: EntityManager, read: StoredSecrets, secret: string): Promise<boolean> {
    const [, updated] = await manager.query<[unknown, number]>(`UPDATE operators SET totp_secret = $2 WHERE id = $1 AND totp_secret = $3`, [
      read.id,
      secret,
      read.secret,
    ]);
    return updated > 0;
  }
}
