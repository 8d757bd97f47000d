import { AppSettings, validateEnvironment } from './env.schema';

/**
 * The process's settings, validated: each entry point calls it once, at start-up, and hands the result to its
 * root module (AppConfigModule.forRoot), so a bad setting is reported before anything is built. From the process's
 * environment, or from a fixed one for a tool that describes a configuration other than its own.
 */
export function readSettings(environment: Record<string, string | undefined> = process.env): AppSettings {
  return validateEnvironment(environment);
}
