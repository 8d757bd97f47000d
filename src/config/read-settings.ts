import { AppSettings, validateEnvironment } from './env.schema';

/** For command-line tools and entry points that run before (or without) a Nest container. */
export function readSettings(): AppSettings {
  return validateEnvironment(process.env);
}
