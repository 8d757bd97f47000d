import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { AppSettings } from './env.schema';

/**
 * Serves the settings its process validated once at start-up (readSettings) to every module, as AppConfig, through
 * @nestjs/config: loaded as they are, not validated again, and never read from process.env or a file behind them.
 */
@Module({})
export class AppConfigModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: AppConfigModule,
      global: true,
      imports: [ConfigModule.forRoot({ ignoreEnvFile: true, skipProcessEnv: true, load: [() => settings] })],
      providers: [AppConfig],
      exports: [AppConfig],
    };
  }
}
