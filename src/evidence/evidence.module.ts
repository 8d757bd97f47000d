import { Module } from '@nestjs/common';
import { EvidenceRecorder } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';

/** API side: records answers into the evidence stream, and reads the records back. */
@Module({
  providers: [EvidenceRecorder, EvidenceRepository],
  exports: [EvidenceRecorder, EvidenceRepository],
})
export class EvidenceModule {}
