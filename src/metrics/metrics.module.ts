import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/**
 * The process's metrics, for both roots; the API serves them at /metrics (src/operator), the worker on its
 * own listener. The controller lives apart so that the worker never loads Swagger's decorators.
 * Features feed their gauges through Metrics (the lookups module its queue and breaker).
 */
@Global()
@Module({
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }],
  exports: [Metrics],
})
export class MetricsModule {}
