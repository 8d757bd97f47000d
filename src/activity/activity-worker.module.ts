import { Module } from '@nestjs/common';
import { ActivityModule } from './activity.module';
import { ActivityRetention } from './activity-retention';

/** Worker side: deletes activity events past ACTIVITY_RETENTION_DAYS. */
@Module({
  imports: [ActivityModule],
  providers: [ActivityRetention],
})
export class ActivityWorkerModule {}
