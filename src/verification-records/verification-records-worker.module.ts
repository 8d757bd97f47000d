import { Module } from '@nestjs/common';
import { AuthCoreModule } from '../auth/auth-core.module';
import { AuthRepository } from '../auth/auth.repository';
import { EvidenceDrain } from './evidence-drain';
import { EvidenceRetention } from './evidence-retention';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';
import { RecordOwners } from './record-owners';

/**
 * Worker side: drains the evidence stream into PostgreSQL, and deletes records past EVIDENCE_RETENTION_DAYS. Auth's
 * repository tells the drain which users exist (RecordOwners).
 */
@Module({
  imports: [AuthCoreModule],
  providers: [EvidenceRepository, EvidenceDrain, EvidenceRetention, EvidenceWaitingGauge, { provide: RecordOwners, useExisting: AuthRepository }],
})
export class VerificationRecordsWorkerModule {}
