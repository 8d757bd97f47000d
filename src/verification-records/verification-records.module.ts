import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EvidenceModule } from '../evidence/evidence.module';
import { JwksController } from './jwks.controller';
import { ReceiptIssuer } from './receipt-issuer';
import { ReceiptSigner } from './receipt-signer';
import { VerificationRecordsController } from './verification-records.controller';
import { VerificationRecordsService } from './verification-records.service';

/** GET /v1/verifications (history, export, receipts) and the receipts' JWKS. */
@Module({
  imports: [AuthModule, EvidenceModule],
  controllers: [VerificationRecordsController, JwksController],
  providers: [VerificationRecordsService, ReceiptSigner, ReceiptIssuer],
  exports: [VerificationRecordsService],
})
export class VerificationRecordsModule {}
