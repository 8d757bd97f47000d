import { Module } from '@nestjs/common';
import { EventsService } from './events.service';

/** Recording and reading events, without the feed's route: the worker's re-checks and webhooks record through it. */
@Module({
  providers: [EventsService],
  exports: [EventsService],
})
export class EventsCoreModule {}
