import { plainToInstance, Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min, validateSync } from 'class-validator';
import { AppSettings, toInteger, validateEnvironment } from '../../src/config/env.schema';

/** What `npm start` and `npm run demo` read besides the service's own settings; the service never sees these. */
class LauncherVariables {
  /** Worker processes to run. */
  @Transform(toInteger)
  @Min(0)
  @Max(64)
  @IsInt()
  WORKERS = 1;

  /** Where an embedded PostgreSQL and a local Redis keep their data. */
  @IsString()
  LVS_DATA_DIR = '.data';

  /** The local PostgreSQL port used while DATABASE_URL is unset (embedded server if closed). */
  @Transform(toInteger)
  @Min(1)
  @Max(65535)
  @IsInt()
  LOCAL_POSTGRES_PORT = 5432;

  /** The local Redis port used while REDIS_URL is unset (redis-server started if closed). */
  @Transform(toInteger)
  @Min(1)
  @Max(65535)
  @IsInt()
  LOCAL_REDIS_PORT = 6379;
}

export type LauncherSettings = Readonly<LauncherVariables>;

const LAUNCHER_SETTING_NAMES = new Set(Object.keys(new LauncherVariables()));

/** The launcher's own settings from an environment, every bad one named as the service names its own. */
export function validateLauncherSettings(raw: Record<string, string | undefined>): LauncherSettings {
  const given = Object.fromEntries(Object.entries(raw).filter(([name, value]) => LAUNCHER_SETTING_NAMES.has(name) && value !== ''));
  const settings = plainToInstance(LauncherVariables, given);
  const problems = validateSync(settings, { stopAtFirstError: true, validationError: { target: false, value: false } }).map(
    (error) => `Invalid configuration: ${error.property}: ${Object.values(error.constraints ?? {}).join('; ')}`,
  );
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return Object.freeze(settings);
}

/**
 * The processes' LOG_FORMAT: as set, else readable lines for a person (the demo, or a terminal), else JSON lines
 * for a file or another program, as in production.
 */
export function childLogFormat(given: string | undefined, demo: boolean, terminal: boolean): string {
  return given || (demo || terminal ? 'text' : 'json');
}

/** What `npm start` needs: both kinds of settings, which URLs the operator chose, and the environment its children inherit. */
export interface LauncherEnvironment {
  /** the service's settings, as the API and the workers will read them */
  settings: AppSettings;
  launcher: LauncherSettings;
  /** false: DATABASE_URL is unset, so the launcher may use or start a local PostgreSQL */
  databaseUrlGiven: boolean;
  /** false: no Redis is set (REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES), so the launcher may use or start a local one */
  redisUrlGiven: boolean;
  inherited: Record<string, string | undefined>;
}

export function readLauncherEnvironment(environment: Record<string, string | undefined> = process.env): LauncherEnvironment {
  return {
    settings: validateEnvironment(environment),
    launcher: validateLauncherSettings(environment),
    databaseUrlGiven: Boolean(environment.DATABASE_URL),
    redisUrlGiven: Boolean(environment.REDIS_URL || environment.REDIS_SENTINELS || environment.REDIS_CLUSTER_NODES),
    inherited: { ...environment },
  };
}
