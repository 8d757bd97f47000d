import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ErrorsModule } from '../errors/errors.module';
import { RefusalCounter } from '../errors/refusal-counter';
import { Readiness } from '../health/readiness';
import { Metrics } from '../metrics/metrics';
import { OperatorAccounts } from '../operator-console/operator-accounts';
import { OperatorConsoleService } from '../operator-console/operator-console.service';
import { OperatorPagesModule } from '../operator-console/operator-pages.module';
import { OperatorPasskeys } from '../operator-console/operator-passkeys';
import { OperatorRoster } from '../operator-console/operator-roster';
import { OperatorSessions } from '../operator-console/operator-sessions';
import { OperatorSingleSignOn } from '../operator-console/operator-single-sign-on';
import { SignInLimiter } from '../people/sign-in-limiter';
import { UserRateLimiter } from '../rate-limit/user-rate-limiter';
import { ValidationModule } from '../validation/validation.module';
import { OperatorRoutesModule } from './operator-routes.module';

/**
 * The partner app's instances the operators' listener serves: its registry and readiness, the error filter's
 * refusal count, the rate limiter (operator pages take from it too), and the operator console's services.
 */
const SHARED = [
  Metrics,
  Readiness,
  AppConfig,
  RefusalCounter,
  UserRateLimiter,
  OperatorConsoleService,
  OperatorSessions,
  OperatorAccounts,
  SignInLimiter,
  OperatorSingleSignOn,
  OperatorPasskeys,
  OperatorRoster,
];

/**
 * The root of the operators' listener: a second, small Nest application in the API process. It opens no
 * connection of its own: the registry it renders, the readiness it reports and the operator console's services are
 * the partner app's own instances, so /metrics counts the partner port's traffic and readiness is checked once for both.
 */
@Module({})
export class OperatorAppModule {
  static sharing(partner: INestApplicationContext): DynamicModule {
    return {
      module: OperatorAppModule,
      global: true,
      imports: [ErrorsModule, ValidationModule, OperatorRoutesModule, OperatorPagesModule],
      providers: SHARED.map((token) => ({ provide: token, useValue: partner.get<unknown>(token, { strict: false }) })),
      exports: SHARED,
    };
  }
}
