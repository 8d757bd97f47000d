import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventsCoreModule } from './events-core.module';
import { EventsController } from './events.controller';

/** The events feed's route, on EventsCoreModule. */
@Module({
  imports: [EventsCoreModule, AuthModule],
  controllers: [EventsController],
  exports: [EventsCoreModule],
})
export class EventsModule {}
