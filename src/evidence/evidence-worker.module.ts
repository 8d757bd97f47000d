import { Module } from '@nestjs/common';
import { EvidenceDrain } from './evidence-drain';
import { EvidenceRetention } from './evidence-retention';
import { EvidenceRepository } from './evidence.repository';

/** Worker side: drains the evidence stream into PostgreSQL, and deletes records past EVIDENCE_RETENTION_DAYS. */
@Module({
  providers: [EvidenceRepository, EvidenceDrain, EvidenceRetention],
})
export class EvidenceWorkerModule {}
