import { AppSettings, validateEnvironment } from './env.schema';

/**
 * The process's settings, validated: each entry point calls it once, at start-up, and hands the result to its
 * root module (AppConfigModule.forRoot), so a bad setting is reported before anything is built.
 */
export function readSettings(): AppSettings {
  return validateEnvironment(process.env);
}
