import { Injectable, Logger } from '@nestjs/common';
import type { KeyMode } from '../auth/key-mode';
import { AppConfig } from '../config/app-config';
import {
  DEVELOPMENT_RECEIPT_KEY,
  readReceiptKey,
  RECEIPT_TYPE,
  ReceiptJwk,
  ReceiptKey,
  signReceipt,
  TEST_RECEIPT_TYPE,
  testReceiptKey,
} from './receipt-keys';
import { RECEIPT_FIELDS, VerificationRecord } from './verification-record';
import { ReceiptIssuer } from './receipt-issuer';

/**
 * Signs receipts with the first key of RECEIPT_SIGNING_KEYS, test-mode ones with the test key derived from it,
 * and publishes every key's public half: live keys in one key set, test keys in another.
 */
@Injectable()
export class ReceiptSigner {
  private readonly keys: Record<KeyMode, ReceiptKey[]>;

  constructor(
    config: AppConfig,
    private readonly issuer: ReceiptIssuer,
  ) {
    const configured = config.get('RECEIPT_SIGNING_KEYS');
    if (configured.length === 0) {
      new Logger('Receipts').warn(
        'RECEIPT_SIGNING_KEYS is not set: receipts are signed with a public development key; set one (npm run admin -- receipt-key) in production',
      );
    }
    const seeds = configured.length === 0 ? [DEVELOPMENT_RECEIPT_KEY] : configured;
    this.keys = { live: seeds.map(readReceiptKey), test: seeds.map(testReceiptKey) };
  }

  /**
   * The record of the given side as a compact JWS, with the issuer and the time of signing. A test-mode receipt is
   * signed by the test key and typed as one, so that no check of a live receipt accepts it.
   */
  sign(record: VerificationRecord, mode: KeyMode, now: Date): string {
    const claims = {
      ...Object.fromEntries(RECEIPT_FIELDS.map((field) => [field, record[field]])),
      mode,
      iss: this.issuer.name(),
      iat: Math.floor(now.getTime() / 1000),
    };
    return signReceipt(claims, this.keys[mode][0], mode === 'test' ? TEST_RECEIPT_TYPE : RECEIPT_TYPE);
  }

  /** A side's JWKS: every configured key stays published, so receipts signed before a rotation still verify. */
  jwks(mode: KeyMode): { keys: ReceiptJwk[] } {
    return { keys: this.keys[mode].map((key) => key.jwk) };
  }
}
