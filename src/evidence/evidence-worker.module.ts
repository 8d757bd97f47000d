import { Module } from '@nestjs/common';
import { EvidenceDrain } from './evidence-drain';
import { EvidenceRetention } from './evidence-retention';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';

/** Worker side: drains the evidence stream into PostgreSQL, and deletes records past EVIDENCE_RETENTION_DAYS. */
@Module({
  providers: [EvidenceRepository, EvidenceDrain, EvidenceRetention, EvidenceWaitingGauge],
})
export class EvidenceWorkerModule {}
