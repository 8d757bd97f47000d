import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppSettings } from './env.schema';

/** Typed, read-only access to the settings validated once at start-up; the only way code reads configuration. */
@Injectable()
export class AppConfig {
  constructor(private readonly config: ConfigService<AppSettings, true>) {}

  get<K extends keyof AppSettings>(name: K): AppSettings[K] {
    return this.config.get(name, { infer: true });
  }
}
