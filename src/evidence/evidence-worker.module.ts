import { DynamicModule, Module, Type } from '@nestjs/common';
import { EvidenceDrain } from './evidence-drain';
import { EvidenceRetention } from './evidence-retention';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceWaitingGauge } from './evidence-waiting-gauge';

/** Worker side: drains the evidence stream into PostgreSQL, and deletes records past EVIDENCE_RETENTION_DAYS. */
@Module({})
export class EvidenceWorkerModule {
  /** `owners`: a module that exports RecordOwners (auth's, which this module may not import). */
  static forRoot(owners: Type): DynamicModule {
    return {
      module: EvidenceWorkerModule,
      imports: [owners],
      providers: [EvidenceRepository, EvidenceDrain, EvidenceRetention, EvidenceWaitingGauge],
    };
  }
}
