import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';

/** The API's probes. */
@Module({})
export class HealthModule {
  /** `imports`: the modules that provide the ReadinessProbe; the root names them, so health imports no feature. */
  static forRoot(options: { imports: NonNullable<ModuleMetadata['imports']> }): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false }), ...options.imports],
      controllers: [HealthController],
    };
  }
}
