import { Module } from '@nestjs/common';
import { ActivityLog } from './activity-log';

/** The activity log, for the modules whose changes it records; its route is auth's (ActivityController). */
@Module({
  providers: [ActivityLog],
  exports: [ActivityLog],
})
export class ActivityModule {}
