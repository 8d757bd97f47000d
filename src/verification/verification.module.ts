import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LookupsModule } from '../lookups/lookups.module';
import { QuotaModule } from '../quota/quota.module';
import { VerificationRecordsCoreModule } from '../verification-records/verification-records-core.module';
import { SecretsModule } from '../secrets/secrets.module';
import { AnswerFinisher } from './answer-finisher';
import { IdempotencyStore } from './idempotency-store';
import { VerificationController } from './verification.controller';
import { VerificationOutcomes } from './verification-outcomes';
import { VerificationService } from './verification.service';
import { claimIdempotencyKeys } from './idempotency-claims.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** POST /v1/licences/verify: it asks the lookups module and never runs a lookup itself. */
@Module({
  imports: [RedisScriptsModule.forFeature([claimIdempotencyKeys]), AuthModule, QuotaModule, LookupsModule, VerificationRecordsCoreModule, SecretsModule],
  controllers: [VerificationController],
  providers: [VerificationService, IdempotencyStore, VerificationOutcomes, AnswerFinisher],
  exports: [VerificationService, AnswerFinisher, VerificationOutcomes],
})
export class VerificationModule {}
