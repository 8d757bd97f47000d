import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ExpirySweep } from '../database/expiry-sweep';
import { EvidenceRepository } from './evidence.repository';

/** Deletes verification records answered more than EVIDENCE_RETENTION_DAYS ago, at start-up and hourly (every worker). */
@Injectable()
export class EvidenceRetention extends ExpirySweep {
  constructor(
    private readonly repository: EvidenceRepository,
    private readonly config: AppConfig,
    clock: Clock,
  ) {
    super(new Logger('EvidenceRetention'), clock, 'verification records', 'answered before');
  }

  protected retentionDays(): number {
    return this.config.get('EVIDENCE_RETENTION_DAYS');
  }

  protected deleteBefore(cutoff: Date): Promise<number> {
    return this.repository.deleteAnsweredBefore(cutoff);
  }
}
