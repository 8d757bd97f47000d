import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { REGISTER_LOOKUP_QUEUE } from '../lookups/lookups.queue';
import { Metrics } from './metrics';
import { QueueDepth } from './queue-depth';

/**
 * The process's metrics, for both roots; the API serves them at /metrics (MetricsEndpointModule), the worker
 * on its own listener. The controller lives apart so that the worker never loads Swagger's decorators.
 */
@Global()
@Module({
  imports: [BullModule.registerQueue({ name: REGISTER_LOOKUP_QUEUE })],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }, QueueDepth],
  exports: [Metrics],
})
export class MetricsModule {}
