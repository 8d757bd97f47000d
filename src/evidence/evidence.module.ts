import { Module } from '@nestjs/common';
import { EvidenceRecorder } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';

/** API side: records answers into the evidence stream, reads the records back, and exports how long the oldest waits. */
@Module({
  providers: [EvidenceRecorder, EvidenceRepository, EvidenceWaitingGauge],
  exports: [EvidenceRecorder, EvidenceRepository],
})
export class EvidenceModule {}
