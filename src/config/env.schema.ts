import { plainToInstance, Transform } from 'class-transformer';
import { PRODUCTION_REGISTER_URL } from '@lvs/register';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** Every setting of both processes, validated once at start-up. */
export class EnvironmentVariables {
  @IsString()
  HOST = '0.0.0.0';

  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @Matches(/^postgres(ql)?:\/\/[^/]+\/[A-Za-z0-9_]+$/, {
    message: 'DATABASE_URL must be postgres://user[:password]@host[:port]/database',
  })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/licence_verification';

  @Transform(toBoolean) @IsBoolean()
  MIGRATIONS_RUN = true;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://host:port[/db]' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Namespaces every Redis key (queue, cache, idempotency) so that deployments and test runs never meet. */
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'REDIS_PREFIX must be 1-64 letters, digits, _ or -' })
  REDIS_PREFIX = 'lvs';

  @IsString()
  QUOTA_TIME_ZONE = 'UTC';

  @Matches(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { message: 'REGISTER_URL must be an http(s) origin' })
  REGISTER_URL = PRODUCTION_REGISTER_URL;

  @Transform(toInt) @IsInt() @Min(100) @Max(60000)
  REGISTER_REQUEST_TIMEOUT_MS = 4000;

  @Transform(toInt) @IsInt() @Min(1) @Max(1000)
  REGISTER_MAX_PER_SECOND = 10;

  @Transform(toInt) @IsInt() @Min(100) @Max(60000)
  VERIFY_TIMEOUT_MS = 5000;

  @Transform(toInt) @IsInt() @Min(1) @Max(256)
  WORKER_CONCURRENCY = 16;

  /** How long a worker's claim on a job lasts without renewal; a killed worker's job is retried after it. */
  @Transform(toInt) @IsInt() @Min(1000) @Max(600000)
  WORKER_LOCK_DURATION_MS = 30000;

  /** How often workers look for jobs whose worker died. */
  @Transform(toInt) @IsInt() @Min(500) @Max(600000)
  WORKER_STALLED_INTERVAL_MS = 30000;

  @Transform(toInt) @IsInt() @Min(1) @Max(10)
  LOOKUP_ATTEMPTS = 3;

  @Transform(toInt) @IsInt() @Min(10) @Max(60000)
  LOOKUP_BACKOFF_MS = 500;

  @Transform(toInt) @IsInt() @Min(1)
  CACHE_TTL_FOUND_SECONDS = 3600;

  @Transform(toInt) @IsInt() @Min(1)
  CACHE_TTL_NOT_FOUND_SECONDS = 600;

  @Transform(toInt) @IsInt() @Min(1)
  IDEMPOTENCY_TTL_SECONDS = 86400;

  /** How long batches and their results are kept. */
  @Transform(toInt) @IsInt() @Min(1) @Max(3650)
  BATCH_RETENTION_DAYS = 30;

  /** Every watched number is re-checked at least this often (if the register share allows). */
  @Transform(toInt) @IsInt() @Min(1) @Max(31 * 86400)
  WATCH_RECHECK_SECONDS = 86400;

  /** The largest part of REGISTER_MAX_PER_SECOND that watchlist re-checks may use. */
  @Transform(toNumber) @IsNumber() @Min(0.01) @Max(1)
  WATCH_MAX_REGISTER_SHARE = 0.5;

  /** 32 bytes as 64 hex digits: encrypts webhook signing secrets. Empty: a fixed development key, with a warning. */
  @Matches(/^([0-9a-fA-F]{64})?$/, { message: 'WEBHOOK_SECRET_KEY must be 64 hex digits (32 bytes)' })
  WEBHOOK_SECRET_KEY = '';

  /** Seconds to wait before each delivery attempt; its length is the number of attempts. */
  @Matches(/^\d+(,\d+){0,19}$/, { message: 'WEBHOOK_RETRY_SCHEDULE_SECONDS must be 1-20 comma-separated whole seconds' })
  WEBHOOK_RETRY_SCHEDULE_SECONDS = '0,5,300,1800,7200,18000,36000,36000';

  /** Allows http and private, loopback and link-local webhook addresses: for tests and local demos only. */
  @Transform(toBoolean) @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';

  @IsIn(['json', 'text'])
  LOG_FORMAT = 'json';
}

export type AppSettings = Readonly<EnvironmentVariables>;

/**
 * Validates raw environment variables; throws one error naming every bad variable.
 * Used as ConfigModule's `validate` and by the command-line tools.
 */
export function validateEnvironment(raw: Record<string, unknown>): AppSettings {
  const known = Object.keys(new EnvironmentVariables());
  const relevant = Object.fromEntries(
    Object.entries(raw).filter(([name, value]) => known.includes(name) && value !== ''),
  );
  const settings = plainToInstance(EnvironmentVariables, relevant);
  const problems = validateSync(settings, { forbidUnknownValues: false }).map(
    (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')}`,
  );
  if (!isValidTimeZone(settings.QUOTA_TIME_ZONE)) {
    problems.push(`QUOTA_TIME_ZONE: "${settings.QUOTA_TIME_ZONE}" is not an IANA time zone`);
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return Object.freeze(settings);
}
