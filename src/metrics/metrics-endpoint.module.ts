import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** GET /metrics on the API, serving the registry of MetricsModule. */
@Module({ controllers: [MetricsController] })
export class MetricsEndpointModule {}
