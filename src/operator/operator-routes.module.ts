import { Module } from '@nestjs/common';
import { HealthController } from '../health/health.controller';
import { MetricsController } from '../metrics/metrics.controller';

/**
 * The operators' routes, /metrics and /health/*: part of the partner app while OPERATOR_PORT is unset,
 * otherwise of the operators' listener only (operator-app.module.ts). They need the global Metrics and
 * Readiness of the API.
 */
@Module({ controllers: [HealthController, MetricsController] })
export class OperatorRoutesModule {}
