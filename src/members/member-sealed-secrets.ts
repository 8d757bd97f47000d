import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SealedSecretRows, sealedSecretColumns } from '../secrets/secret-reencryption';

/**
 * Members' secrets sealed with the webhook secret key ring, as rows that reseal-secrets reseals with the ring's first
 * key, so that an old key can be dropped without locking members out: their TOTP secrets (the one in use and one
 * waiting for its first code after a reset, removed members' too) and single sign-on's client secrets.
 */
@Injectable()
export class MemberSealedSecrets {
  readonly totp: SealedSecretRows;
  readonly singleSignOn: SealedSecretRows;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.totp = sealedSecretColumns(dataSource, 'members', 'id', ['totp_secret', 'totp_pending_secret']);
    this.singleSignOn = sealedSecretColumns(dataSource, 'member_sso', 'user_id', ['client_secret']);
  }
}
