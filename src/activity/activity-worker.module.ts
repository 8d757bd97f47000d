import { Module } from '@nestjs/common';
import { ActivityLog } from './activity-log';
import { ActivityRetention } from './activity-retention';

/** Worker side: deletes activity events past ACTIVITY_RETENTION_DAYS. */
@Module({
  providers: [ActivityLog, ActivityRetention],
})
export class ActivityWorkerModule {}
