import { AppSettings } from './env.schema';

/** Typed, read-only access to the settings validated once at start-up; the only way code reads configuration. */
export class AppConfig {
  constructor(private readonly settings: AppSettings) {}

  get<K extends keyof AppSettings>(name: K): AppSettings[K] {
    return this.settings[name];
  }
}
