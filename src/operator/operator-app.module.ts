import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { ErrorsModule } from '../errors/errors.module';
import { Readiness } from '../health/readiness';
import { Metrics } from '../metrics/metrics';
import { OperatorRoutesModule } from './operator-routes.module';

/**
 * The root of the operators' listener: a second, small Nest application in the API process. It opens no
 * connection of its own: the registry it renders and the readiness it reports are the partner app's own
 * instances, so /metrics counts the partner port's traffic and readiness is checked once for both.
 */
@Module({})
export class OperatorAppModule {
  static sharing(partner: INestApplicationContext): DynamicModule {
    return {
      module: OperatorAppModule,
      global: true,
      imports: [ErrorsModule, OperatorRoutesModule],
      providers: [
        { provide: Metrics, useValue: partner.get<Metrics>(Metrics) },
        { provide: Readiness, useValue: partner.get<Readiness>(Readiness) },
      ],
      exports: [Metrics, Readiness],
    };
  }
}
