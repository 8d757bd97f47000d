import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ExpirySweep } from '../database/expiry-sweep';
import { BatchRepository } from './batch.repository';

/** Deletes batches (their items go with them) older than BATCH_RETENTION_DAYS, at start-up and hourly (every API process). */
@Injectable()
export class BatchRetention extends ExpirySweep {
  constructor(
    private readonly repository: BatchRepository,
    private readonly config: AppConfig,
    clock: Clock,
  ) {
    super(new Logger('BatchRetention'), clock, 'batches', 'created before');
  }

  protected retentionDays(): number {
    return this.config.get('BATCH_RETENTION_DAYS');
  }

  protected deleteBefore(cutoff: Date): Promise<number> {
    return this.repository.deleteCreatedBefore(cutoff);
  }
}
