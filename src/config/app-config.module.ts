import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { AppSettings } from './env.schema';

/** Serves the settings its process validated once at start-up (readSettings) to every module, as AppConfig. */
@Module({})
export class AppConfigModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return { module: AppConfigModule, global: true, providers: [{ provide: AppConfig, useValue: new AppConfig(settings) }], exports: [AppConfig] };
  }
}
