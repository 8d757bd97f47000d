import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ExpirySweep } from '../database/expiry-sweep';
import { ActivityLog } from './activity-log';

/** Deletes activity events older than ACTIVITY_RETENTION_DAYS, at start-up and hourly (every worker). */
@Injectable()
export class ActivityRetention extends ExpirySweep {
  constructor(
    private readonly log: ActivityLog,
    private readonly config: AppConfig,
    clock: Clock,
  ) {
    super(new Logger('ActivityRetention'), clock, 'activity events', 'that occurred before');
  }

  protected retentionDays(): number {
    return this.config.get('ACTIVITY_RETENTION_DAYS');
  }

  protected deleteBefore(cutoff: Date): Promise<number> {
    return this.log.deleteBefore(cutoff);
  }
}
