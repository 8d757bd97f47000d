// Not the library's index: that loads the register client and its HTML parser, which the API never uses.
import { PRODUCTION_REGISTER_URL } from '@lvs/register/production-url';

/**
 * How one environment variable becomes a setting: its default, how its text is read, and what the value read must
 * be. Plain functions rather than class-validator: it was the only user of class-validator, class-transformer,
 * validator and libphonenumber-js, about 3.5 MiB of live heap in every process.
 */
interface Setting<T> {
  default: T;
  /** The variable's text as the value to check; text that cannot be read stays text, and the check names it. */
  read: (text: string) => unknown;
  /** What is wrong with the value, as the line that names the variable; null when it is a good value. */
  problem: (value: unknown, name: string) => string | null;
}

const asText = (text: string): unknown => text;

function integer(fallback: number, min: number, max = Infinity): Setting<number> {
  return {
    default: fallback,
    read: (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text),
    problem: (value, name) => (Number.isInteger(value) ? rangeProblem(value as number, name, min, max) : `${name} must be an integer number`),
  };
}

function decimal(fallback: number, min: number, max: number): Setting<number> {
  return {
    default: fallback,
    read: (text) => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text),
    problem: (value, name) =>
      Number.isFinite(value) ? rangeProblem(value as number, name, min, max) : `${name} must be a number conforming to the specified constraints`,
  };
}

function rangeProblem(value: number, name: string, min: number, max: number): string | null {
  if (value < min) return `${name} must not be less than ${min}`;
  if (value > max) return `${name} must not be greater than ${max}`;
  return null;
}

function flag(fallback: boolean): Setting<boolean> {
  return {
    default: fallback,
    read: (text) => (text === 'true' ? true : text === 'false' ? false : text),
    problem: (value, name) => (typeof value === 'boolean' ? null : `${name} must be a boolean value`),
  };
}

/** Any text; `problem`, where given, returns the whole line after the variable's name. */
function text(fallback: string, problem: (value: string) => string | null = () => null): Setting<string> {
  return { default: fallback, read: asText, problem: (value) => problem(value as string) };
}

/** Only a value that is set is checked: an empty variable counts as unset and takes the default. */
function matching(fallback: string, pattern: RegExp, message: string): Setting<string> {
  return { default: fallback, read: asText, problem: (value) => (pattern.test(value as string) ? null : message) };
}

function oneOf(fallback: string, values: string[]): Setting<string> {
  return {
    default: fallback,
    read: asText,
    problem: (value, name) => (values.includes(value as string) ? null : `${name} must be one of the following values: ${values.join(', ')}`),
  };
}

/** Comma-separated http(s) origins, trimmed, empty items dropped. */
function origins(): Setting<string[]> {
  const origin = /^https?:\/\/[^\s/,]+$/;
  return {
    default: [],
    read: (text) => text.split(',').map((item) => item.trim()).filter((item) => item !== ''),
    problem: (value, name) =>
      (value as string[]).every((item) => origin.test(item)) ? null : `${name} must be comma-separated http(s) origins`,
  };
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Any URL PostgreSQL clients accept (query parameters such as sslmode, percent-encoded passwords), with a
 * plain database name: the service creates that database when missing and quotes it in SQL.
 */
export function describeDatabaseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL: postgres://user[:password]@host[:port]/database[?options]';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return 'must start with postgres:// or postgresql://';
  if (url.hostname === '') return 'must name a host';
  try {
    decodeURIComponent(url.username + url.password);
  } catch {
    return 'has a badly percent-encoded user or password';
  }
  if (!/^\/[A-Za-z0-9_]+$/.test(url.pathname)) return 'must end in a database name of letters, digits and _';
  return null;
}

/** Every setting of both processes, validated once at start-up. */
const SETTINGS = {
  HOST: text('0.0.0.0'),

  PORT: integer(3000, 0, 65535),

  /** Time for a request's headers to arrive; a client too slow gets 408 and the connection is closed. */
  REQUEST_HEADERS_TIMEOUT_MS: integer(5000, 1000, 300000),

  /** Time for a whole request, headers and body, to arrive: a body dripping in byte by byte gets 408. */
  REQUEST_BODY_TIMEOUT_MS: integer(10000, 1000, 300000),

  /** How long an idle keep-alive connection stays open; above the 60 s idle timeout of common load balancers. */
  KEEP_ALIVE_TIMEOUT_MS: integer(65000, 1000, 600000),

  /** Browser origins allowed to call the API, comma-separated; empty turns CORS off. */
  CORS_ORIGINS: origins(),

  /** Any PostgreSQL URL, query parameters included (describeDatabaseUrlProblem). */
  DATABASE_URL: text('postgres://postgres@127.0.0.1:5432/licence_verification', describeDatabaseUrlProblem),

  MIGRATIONS_RUN: flag(true),

  /** How long opening a database connection may take: an unreachable database fails requests fast. */
  DATABASE_CONNECT_TIMEOUT_MS: integer(1000, 100, 60000),

  /** How long one database statement may take. */
  DATABASE_STATEMENT_TIMEOUT_MS: integer(5000, 100, 600000),

  /** How long an API process trusts what it cached about a key when it missed a change announcement. */
  AUTH_CACHE_TTL_SECONDS: integer(60, 1, 3600),

  AUTH_CACHE_MAX_KEYS: integer(10000, 1, 1000000),

  REDIS_URL: matching('redis://127.0.0.1:6379', /^rediss?:\/\/[^\s]+$/, 'REDIS_URL must be redis://host:port[/db] or rediss:// for TLS'),

  /** Connect and command timeout of our Redis clients, and of readiness checks: a Redis that is down or frozen fails requests fast. */
  DEPENDENCY_TIMEOUT_MS: integer(1000, 100, 60000),

  /** Namespaces every Redis key (queue, cache, idempotency) so that deployments and test runs never meet. */
  REDIS_PREFIX: matching('lvs', /^[A-Za-z0-9_-]{1,64}$/, 'REDIS_PREFIX must be 1-64 letters, digits, _ or -'),

  /** The API's address as partners reach it, for the OpenAPI document's servers; empty: each request's own origin. */
  PUBLIC_BASE_URL: matching('', /^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/, 'PUBLIC_BASE_URL must be an http(s) URL without a trailing slash, query or fragment'),

  QUOTA_TIME_ZONE: text('UTC', (zone) => (isValidTimeZone(zone) ? null : `"${zone}" is not an IANA time zone`)),

  REGISTER_URL: matching(PRODUCTION_REGISTER_URL, /^https?:\/\/[^\s/]+(:\d+)?\/?$/, 'REGISTER_URL must be an http(s) origin'),

  REGISTER_REQUEST_TIMEOUT_MS: integer(4000, 100, 60000),

  REGISTER_MAX_PER_SECOND: integer(10, 1, 1000),

  VERIFY_TIMEOUT_MS: integer(5000, 100, 60000),

  WORKER_CONCURRENCY: integer(16, 1, 256),

  /** How long a worker's claim on a job lasts without renewal; a killed worker's job is retried after it. */
  WORKER_LOCK_DURATION_MS: integer(30000, 1000, 600000),

  /** How often workers look for jobs whose worker died. */
  WORKER_STALLED_INTERVAL_MS: integer(30000, 500, 600000),

  LOOKUP_ATTEMPTS: integer(3, 1, 10),

  /** Consecutive lookups that end with the register unavailable before the breaker opens for every process. */
  REGISTER_BREAKER_FAILURES: integer(5, 1, 1000),

  /** How long an open breaker refuses new lookups before one probe may try the register again. */
  REGISTER_BREAKER_COOLDOWN_SECONDS: integer(30, 1, 3600),

  /** Lookups allowed to wait in the queue; beyond it new lookups are refused with 503, uncharged. */
  QUEUE_MAX_WAITING: integer(10000, 1, 10000000),

  LOOKUP_BACKOFF_MS: integer(500, 10, 60000),

  CACHE_TTL_FOUND_SECONDS: integer(3600, 1),

  CACHE_TTL_NOT_FOUND_SECONDS: integer(600, 1),

  IDEMPOTENCY_TTL_SECONDS: integer(86400, 1),

  /** How long batches and their results are kept. */
  BATCH_RETENTION_DAYS: integer(30, 1, 3650),

  /** Every watched number is re-checked at least this often (if the register share allows). */
  WATCH_RECHECK_SECONDS: integer(86400, 1, 31 * 86400),

  /** The largest part of REGISTER_MAX_PER_SECOND that watchlist re-checks may use. */
  WATCH_MAX_REGISTER_SHARE: decimal(0.5, 0.01, 1),

  /** 32 bytes as 64 hex digits: encrypts webhook signing secrets. Empty: a fixed development key, with a warning. */
  WEBHOOK_SECRET_KEY: matching('', /^([0-9a-fA-F]{64})?$/, 'WEBHOOK_SECRET_KEY must be 64 hex digits (32 bytes)'),

  /** Seconds to wait before each delivery attempt; its length is the number of attempts. */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: matching('0,5,300,1800,7200,18000,36000,36000', /^\d+(,\d+){0,19}$/, 'WEBHOOK_RETRY_SCHEDULE_SECONDS must be 1-20 comma-separated whole seconds'),

  /** Allows http and private, loopback and link-local webhook addresses: for tests and local demos only. */
  WEBHOOK_ALLOW_PRIVATE_URLS: flag(false),

  LOG_LEVEL: oneOf('log', ['fatal', 'error', 'warn', 'log', 'debug', 'verbose']),

  LOG_FORMAT: oneOf('json', ['json', 'text']),

  /** The worker's operators' listener (/metrics, /health/*); 0 picks a free port. */
  WORKER_HTTP_PORT: integer(3001, 0, 65535),

  /** API readiness fails when no worker has written its heartbeat for this long. */
  WORKER_HEARTBEAT_TIMEOUT_MS: integer(30000, 1000, 600000),

  /** How long a SIGTERM'd process may finish in-flight work before it exits regardless. */
  SHUTDOWN_GRACE_MS: integer(10000, 0, 600000),

  /** Enables the queue dashboard at /admin/queues, protected by this token; empty keeps it off. */
  ADMIN_TOKEN: text(''),

  /** `npm start` / `npm run demo` only: worker processes to run. */
  WORKERS: integer(1, 0, 64),

  /** `npm start` only: where an embedded PostgreSQL and a local Redis keep their data. */
  LVS_DATA_DIR: text('.data'),

  /** `npm start` only: the local PostgreSQL port used while DATABASE_URL is unset (embedded server if closed). */
  LOCAL_POSTGRES_PORT: integer(5432, 1, 65535),

  /** `npm start` only: the local Redis port used while REDIS_URL is unset (redis-server started if closed). */
  LOCAL_REDIS_PORT: integer(6379, 1, 65535),
};

type Settings = typeof SETTINGS;
export type AppSettings = { readonly [Name in keyof Settings]: Settings[Name]['default'] };

/**
 * Validates raw environment variables; throws one error naming every bad variable.
 * Used as ConfigModule's `validate` and by the command-line tools. An empty variable counts as unset.
 */
export function validateEnvironment(raw: Record<string, unknown>): AppSettings {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const given = raw[name];
    if (given === undefined || given === '') {
      settings[name] = setting.default;
      continue;
    }
    const value = setting.read(String(given));
    const problem = setting.problem(value, name);
    if (problem !== null) problems.push(`${name}: ${problem}`);
    settings[name] = value;
  }
  if ((settings.REQUEST_HEADERS_TIMEOUT_MS as number) > (settings.REQUEST_BODY_TIMEOUT_MS as number)) {
    problems.push('REQUEST_HEADERS_TIMEOUT_MS: must not exceed REQUEST_BODY_TIMEOUT_MS (which counts the headers too)');
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return Object.freeze(settings) as AppSettings;
}
