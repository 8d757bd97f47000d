import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { REGISTER_LOOKUP_QUEUE } from '../lookups/lookups.queue';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE })],
  controllers: [HealthController],
})
export class HealthModule {}
