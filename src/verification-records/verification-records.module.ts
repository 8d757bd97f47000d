import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { VerificationRecordsCoreModule } from './verification-records-core.module';
import { MembersCoreModule } from '../members/members-core.module';
import { ExportPlaces } from './export-places';
import { JwksController } from './jwks.controller';
import { ReceiptIssuer } from './receipt-issuer';
import { ReceiptSigner } from './receipt-signer';
import { VerificationRecordsController } from './verification-records.controller';
import { VerificationRecordsService } from './verification-records.service';
import { takeLivePlace } from '../redis/live-places.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** GET /v1/verifications (history, export, receipts) and the receipts' JWKS. */
@Module({
  imports: [RedisScriptsModule.forFeature([takeLivePlace]), AuthModule, VerificationRecordsCoreModule, MembersCoreModule],
  controllers: [VerificationRecordsController, JwksController],
  providers: [VerificationRecordsService, ExportPlaces, ReceiptSigner, ReceiptIssuer],
  exports: [VerificationRecordsService],
})
export class VerificationRecordsModule {}
