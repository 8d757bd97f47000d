import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DEVELOPMENT_RECEIPT_KEY, readReceiptKey, ReceiptJwk, ReceiptKey, signReceipt } from '../evidence/receipt-keys';
import type { VerificationRecord } from '../evidence/verification-record';

/** Signs receipts with the first key of RECEIPT_SIGNING_KEYS and publishes every key's public half. */
@Injectable()
export class ReceiptSigner {
  private readonly keys: ReceiptKey[];

  constructor(config: AppConfig) {
    const configured = config.get('RECEIPT_SIGNING_KEYS');
    if (configured.length === 0) {
      new Logger('Receipts').warn(
        'RECEIPT_SIGNING_KEYS is not set: receipts are signed with a public development key; set one (npm run keys -- receipt-key) in production',
      );
    }
    this.keys = (configured.length === 0 ? [DEVELOPMENT_RECEIPT_KEY] : configured).map(readReceiptKey);
  }

  /** The record as a compact JWS, with the issuer (the service's public URL) and the time of signing. */
  sign(record: VerificationRecord, issuer: string, now: Date): string {
    return signReceipt({ ...record, iss: issuer, iat: Math.floor(now.getTime() / 1000) }, this.keys[0]);
  }

  /** The JWKS: every configured key stays published, so receipts signed before a rotation still verify. */
  jwks(): { keys: ReceiptJwk[] } {
    return { keys: this.keys.map((key) => key.jwk) };
  }
}
