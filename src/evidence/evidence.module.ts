import { Module } from '@nestjs/common';
import { EvidenceRecorder } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';
import { recordAnswers } from './answer-records.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** API side: records answers into the evidence stream, reads the records back, and exports how long the oldest waits. */
@Module({
  imports: [RedisScriptsModule.forFeature([recordAnswers])],
  providers: [EvidenceRecorder, EvidenceRepository, EvidenceWaitingGauge],
  exports: [EvidenceRecorder, EvidenceRepository],
})
export class EvidenceModule {}
