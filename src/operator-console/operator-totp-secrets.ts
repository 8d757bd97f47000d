import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SealedSecretRows, sealedSecretColumns } from '../secrets/secret-reencryption';

/**
 * Operators' TOTP secrets, sealed with the webhook secret key ring (OperatorAccounts), as rows that reseal-secrets
 * reseals with the ring's first key, so that an old key can be dropped without locking every operator out.
 */
@Injectable()
export class OperatorTotpSecrets {
  readonly rows: SealedSecretRows;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = sealedSecretColumns(dataSource, 'operators', 'id', ['totp_secret']);
  }
}
