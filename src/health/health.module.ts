import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { Readiness } from './readiness';

/**
 * The API's readiness. Global, so that the operator routes (src/operator) find it whether they are served
 * on the partner port or on the operators' listener, which takes this very instance.
 */
@Module({})
export class HealthModule {
  /** `imports`: the modules that provide the ReadinessProbe; the root names them, so health imports no feature. */
  static forRoot(options: { imports: NonNullable<ModuleMetadata['imports']> }): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      imports: [TerminusModule.forRoot({ logger: false }), ...options.imports],
      providers: [Readiness],
      exports: [Readiness],
    };
  }
}
