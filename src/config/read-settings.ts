import { AppSettings, validateEnvironment } from './env.schema';

/** For command-line tools and entry points that run before (or without) a Nest container. */
export function readSettings(): AppSettings {
  return validateEnvironment(process.env);
}

/** What `npm start` needs: the settings, which URLs the operator chose, and the environment its children inherit. */
export interface LauncherEnvironment {
  settings: AppSettings;
  /** false: DATABASE_URL is unset, so the launcher may use or start a local PostgreSQL */
  databaseUrlGiven: boolean;
  /** false: no Redis is set (REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES), so the launcher may use or start a local one */
  redisUrlGiven: boolean;
  inherited: Record<string, string | undefined>;
}

export function readLauncherEnvironment(): LauncherEnvironment {
  return {
    settings: readSettings(),
    databaseUrlGiven: Boolean(process.env.DATABASE_URL),
    redisUrlGiven: Boolean(process.env.REDIS_URL || process.env.REDIS_SENTINELS || process.env.REDIS_CLUSTER_NODES),
    inherited: { ...process.env },
  };
}
