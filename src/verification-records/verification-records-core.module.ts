import { Module } from '@nestjs/common';
import { EvidenceRecorder } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';
import { recordAnswers } from './answer-records.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';
import { QuotaModule } from '../quota/quota.module';
import { SecretsModule } from '../secrets/secrets.module';
import { AnswerRecords } from './answer-records';

/**
 * Verification records without HTTP (the API side's core): records answers into the evidence stream (AnswerRecords,
 * EvidenceRecorder), reads the records back, and exports how long the oldest waits. The controllers are
 * VerificationRecordsModule's, the drain and retention VerificationRecordsWorkerModule's.
 */
@Module({
  imports: [RedisScriptsModule.forFeature([recordAnswers]), QuotaModule, SecretsModule],
  providers: [AnswerRecords, EvidenceRecorder, EvidenceRepository, EvidenceWaitingGauge],
  exports: [AnswerRecords, EvidenceRecorder, EvidenceRepository],
})
export class VerificationRecordsCoreModule {}
