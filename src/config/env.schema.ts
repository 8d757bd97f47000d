import { plainToInstance, Transform, TransformFnParams } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsTimeZone,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidationArguments,
  validateSync,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
// Not the library's index: that loads the register client and its HTML parser, which the API never uses.
import { PRODUCTION_REGISTER_URL } from '@lvs/register/production-url';
import { isDnsServerEntry } from './dns-servers';
import { isTrustedProxyEntry } from './trusted-proxies';
import { describeProductionSecretProblem, ProductionSetting } from './production-secrets';

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

/** A DATABASE_URL that describeDatabaseUrlProblem accepts; its message is that problem. */
@ValidatorConstraint({ name: 'isDatabaseUrl' })
class IsDatabaseUrl implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && describeDatabaseUrlProblem(value) === null;
  }

  defaultMessage({ value }: ValidationArguments): string {
    return typeof value === 'string' ? (describeDatabaseUrlProblem(value) ?? '') : 'must be a string';
  }
}

/** One entry of TRUST_PROXY (isTrustedProxyEntry). */
@ValidatorConstraint({ name: 'isTrustedProxyEntry' })
class IsTrustedProxyEntry implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isTrustedProxyEntry(value);
  }

  defaultMessage(): string {
    return 'TRUST_PROXY must be comma-separated addresses, CIDRs, loopback, linklocal or uniquelocal';
  }
}

/** One entry of WEBHOOK_DNS_SERVERS (isDnsServerEntry). */
@ValidatorConstraint({ name: 'isDnsServer' })
class IsDnsServer implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isDnsServerEntry(value);
  }

  defaultMessage(): string {
    return 'WEBHOOK_DNS_SERVERS must be comma-separated IP addresses, each with an optional :port (IPv6 as [address]:port)';
  }
}

/** A number no greater than the setting named in the constraint (compared only when both are numbers). */
@ValidatorConstraint({ name: 'notAboveSetting' })
class NotAboveSetting implements ValidatorConstraintInterface {
  validate(value: unknown, { object, constraints: [other] }: ValidationArguments): boolean {
    const limit = (object as Record<string, unknown>)[other as string];
    return typeof value !== 'number' || typeof limit !== 'number' || value <= limit;
  }
}

/** On a Redis Cluster (REDIS_CLUSTER_NODES set), REDIS_PREFIX must be a hash tag: {name}. */
@ValidatorConstraint({ name: 'hashTaggedOnCluster' })
class HashTaggedOnCluster implements ValidatorConstraintInterface {
  validate(value: unknown, { object }: ValidationArguments): boolean {
    return (object as EnvironmentVariables).REDIS_CLUSTER_NODES === '' || (typeof value === 'string' && value.startsWith('{'));
  }

  defaultMessage(): string {
    return 'REDIS_PREFIX must start with a hash tag such as {lvs} when REDIS_CLUSTER_NODES is set';
  }
}

/** A setting that production may not run with at its development value (describeProductionSecretProblem). */
@ValidatorConstraint({ name: 'productionSecret' })
class SafeInProduction implements ValidatorConstraintInterface {
  validate(value: unknown, { object, property }: ValidationArguments): boolean {
    return this.problem(value, object, property) === null;
  }

  defaultMessage({ value, object, property }: ValidationArguments): string {
    return this.problem(value, object, property) ?? '';
  }

  private problem(value: unknown, object: object, property: string): string | null {
    const typed = typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value);
    return typed ? describeProductionSecretProblem(property as ProductionSetting, value, object as EnvironmentVariables) : null;
  }
}

// Environment variables are text. Text that does not read as the type stays text, so that the type's
// validator names it (1e3 and 0x10 are not port numbers, though Number() would read them).
export const toInteger = ({ value }: TransformFnParams): unknown => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);
const toDecimal = ({ value }: TransformFnParams): unknown => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value);
const toBoolean = ({ value }: TransformFnParams): unknown => (value === 'true' ? true : value === 'false' ? false : value);
/** Comma-separated items, trimmed, empty items dropped. */
const toList = ({ value }: TransformFnParams): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : value;

/**
 * Every setting of both processes, with its default, validated once at start-up. A number's type check is
 * written last so that it runs first: validation stops at a setting's first error, so text that is not a
 * number is told only that, not its bounds too.
 */
export class EnvironmentVariables {
  /** `production` refuses to start with a development secret (describeProductionSecretProblem). */
  @IsString()
  NODE_ENV = '';

  @IsString()
  HOST = '0.0.0.0';

  @Transform(toInteger)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT = 3000;

  /**
   * The API's operators' listener: /metrics, /health/* and the queue dashboard move there from PORT, which
   * then answers them 404. Unset keeps everything on PORT; 0 picks a free port.
   */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_PORT !== null)
  @Transform(toInteger)
  @Min(0)
  @Max(65535)
  @IsInt()
  OPERATOR_PORT: number | null = null;

  /** The address of the operators' listener; empty: HOST. */
  @IsString()
  OPERATOR_HOST = '';

  /**
   * The operator console's address as operators reach it (invitation links, the origin its forms must come from);
   * empty: http://OPERATOR_HOST:OPERATOR_PORT for links and each request's own origin for forms.
   */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_PUBLIC_URL !== '')
  @Matches(/^https?:\/\/[^\s/?#]+$/, { message: 'OPERATOR_PUBLIC_URL must be an http(s) origin, without a path, query or fragment' })
  OPERATOR_PUBLIC_URL = '';

  /**
   * Single sign-on of operators through the organisation's OpenID provider (its issuer URL); empty: none, operators
   * sign in with a password and TOTP only. With it, OPERATOR_OIDC_CLIENT_ID, _CLIENT_SECRET and _DOMAINS are required.
   */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_OIDC_ISSUER !== '')
  @Matches(/^(https:\/\/[^\s?#/]+|http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?)(\/[^\s?#]*)?$/, {
    message: 'OPERATOR_OIDC_ISSUER must be an https URL (http only on localhost), without a query or fragment',
  })
  OPERATOR_OIDC_ISSUER = '';

  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_OIDC_ISSUER !== '')
  @Matches(/^\S+$/, { message: 'OPERATOR_OIDC_CLIENT_ID is required with OPERATOR_OIDC_ISSUER' })
  OPERATOR_OIDC_CLIENT_ID = '';

  /** Never logged nor shown. */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_OIDC_ISSUER !== '')
  @Matches(/^\S+$/, { message: 'OPERATOR_OIDC_CLIENT_SECRET is required with OPERATOR_OIDC_ISSUER' })
  OPERATOR_OIDC_CLIENT_SECRET = '';

  /** The e-mail domains whose people may sign in as operators, separated by commas. */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_OIDC_ISSUER !== '')
  @Matches(/^\s*[A-Za-z0-9.-]+\.[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9.-]+\.[A-Za-z0-9-]+)*\s*$/, {
    message: 'OPERATOR_OIDC_DOMAINS must list e-mail domains separated by commas, and is required with OPERATOR_OIDC_ISSUER',
  })
  OPERATOR_OIDC_DOMAINS = '';

  /** The role of a person who signs in as an operator for the first time. */
  @IsIn(['operator', 'support'])
  OPERATOR_OIDC_ROLE: 'operator' | 'support' = 'support';

  /** Time for a request's headers to arrive; a client too slow gets 408 and the connection is closed. */
  @Validate(NotAboveSetting, ['REQUEST_BODY_TIMEOUT_MS'], { message: 'must not exceed REQUEST_BODY_TIMEOUT_MS (which counts the headers too)' })
  @Transform(toInteger)
  @Min(1000)
  @Max(300000)
  @IsInt()
  REQUEST_HEADERS_TIMEOUT_MS = 5000;

  /** Time for a whole request, headers and body, to arrive: a body dripping in byte by byte gets 408. */
  @Transform(toInteger)
  @Min(1000)
  @Max(300000)
  @IsInt()
  REQUEST_BODY_TIMEOUT_MS = 10000;

  /** How long an idle keep-alive connection stays open; above the 60 s idle timeout of common load balancers. */
  @Transform(toInteger)
  @Min(1000)
  @Max(600000)
  @IsInt()
  KEEP_ALIVE_TIMEOUT_MS = 65000;

  /** Browser origins allowed to call the API, comma-separated; empty turns CORS off. */
  @Transform(toList)
  @Matches(/^https?:\/\/[^\s/,]+$/, { each: true, message: 'CORS_ORIGINS must be comma-separated http(s) origins' })
  CORS_ORIGINS: string[] = [];

  /**
   * The proxies in front of the API, the only peers allowed to name the client's address in X-Forwarded-For (and
   * the scheme and host in X-Forwarded-*): addresses, CIDRs or named ranges, comma-separated. Unset or `none`:
   * no proxy, every peer is the client. A private source address proves nothing (a layer-4 load balancer passes
   * clients through from one), so operators name their own proxies.
   */
  @Transform((params) => (params.value === 'none' ? [] : toList(params)))
  @Validate(IsTrustedProxyEntry, { each: true })
  TRUST_PROXY: string[] = [];

  /** Any PostgreSQL URL, query parameters included (describeDatabaseUrlProblem). */
  @Validate(IsDatabaseUrl)
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/licence_verification';

  @Transform(toBoolean)
  @IsBoolean()
  MIGRATIONS_RUN = true;

  /** How long opening a database connection may take: an unreachable database fails requests fast. */
  @Transform(toInteger)
  @Min(100)
  @Max(60000)
  @IsInt()
  DATABASE_CONNECT_TIMEOUT_MS = 1000;

  /**
   * A direct PostgreSQL connection (not a pooler) for migrations and their advisory lock, at start-up and from
   * the CLI; empty: DATABASE_URL. Needed when DATABASE_URL points at PgBouncer in transaction mode.
   */
  @ValidateIf((settings: EnvironmentVariables) => settings.DATABASE_MIGRATION_URL !== '')
  @Validate(IsDatabaseUrl)
  DATABASE_MIGRATION_URL = '';

  /**
   * Hot statements run as named prepared statements (parsed once per connection); false for a pooler that
   * cannot carry them across transactions (PgBouncer in transaction mode before 1.21).
   */
  @Transform(toBoolean)
  @IsBoolean()
  DATABASE_PREPARED_STATEMENTS = true;

  /** How long one database statement may take (the client's deadline on each query). */
  @Transform(toInteger)
  @Min(100)
  @Max(600000)
  @IsInt()
  DATABASE_STATEMENT_TIMEOUT_MS = 5000;

  /**
   * How long a quota charge may take from asking for a connection to its commit: past it the caller gets 503
   * and the charge is never committed, so that a verification answers within a second while PostgreSQL is frozen.
   */
  @Transform(toInteger)
  @Min(100)
  @Max(60000)
  @IsInt()
  DATABASE_CHARGE_TIMEOUT_MS = 800;

  /**
   * The slowest pace a CSV export of records may be read at, in bytes a second over each 10 s: a download read slower is
   * cut, so that a stalled client does not keep one of its user's two export places.
   */
  @Transform(toInteger)
  @Min(1)
  @Max(1_000_000_000)
  @IsInt()
  EXPORT_MIN_BYTES_PER_SECOND = 8192;

  /** How long an API process trusts what it cached about a key when it missed a change announcement. */
  @Transform(toInteger)
  @Min(1)
  @Max(3600)
  @IsInt()
  AUTH_CACHE_TTL_SECONDS = 60;

  @Transform(toInteger)
  @Min(1)
  @Max(1000000)
  @IsInt()
  AUTH_CACHE_MAX_KEYS = 10000;

  /** Requests a second each user may send to the partner routes (all of its keys together), unless set per user. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000000)
  @IsInt()
  RATE_LIMIT_PER_SECOND = 20;

  /** Requests a user may send at once after a quiet spell: the size of its token bucket. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000000)
  @IsInt()
  RATE_LIMIT_BURST = 40;

  /**
   * Whether test keys (lvs_test_) work. false: they answer 401 as unknown keys do, and the test sides' watches and
   * webhooks pause; nothing is deleted.
   */
  @Transform(toBoolean)
  @IsBoolean()
  TEST_MODE_ENABLED = true;

  /** Verifications a month of every user's test side, whatever the live plan. */
  @Transform(toInteger)
  @Min(0)
  @Max(2147483647)
  @IsInt()
  TEST_MODE_QUOTA = 1000;

  /** Failed authentications one client address may make in a minute; beyond it 429 before any database query. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000000)
  @IsInt()
  AUTH_FAILURES_PER_MINUTE = 60;

  /** Failed password sign-ins (console members, operators) one client address may make in a minute; beyond it the form answers 429. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000)
  @IsInt()
  SIGN_IN_FAILURES_PER_ADDRESS = 10;

  /** Failed password sign-ins to one e-mail address in a minute, from any addresses; beyond it the form answers 429. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000)
  @IsInt()
  SIGN_IN_FAILURES_PER_EMAIL = 5;

  /** Hours an invitation link works for, from when it was made. */
  @Transform(toInteger)
  @Min(1)
  @Max(720)
  @IsInt()
  INVITATION_HOURS = 72;

  /** Minutes a password reset link works for, from when it was asked for. */
  @Transform(toInteger)
  @Min(5)
  @Max(1440)
  @IsInt()
  PASSWORD_RESET_MINUTES = 60;

  @Matches(/^rediss?:\/\/[^\s]+$/, { message: 'REDIS_URL must be redis://host:port[/db] or rediss:// for TLS' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Connect and command timeout of our Redis clients, and of readiness checks: a Redis that is down or frozen fails requests fast. */
  @Transform(toInteger)
  @Min(100)
  @Max(60000)
  @IsInt()
  DEPENDENCY_TIMEOUT_MS = 800;

  /**
   * Redis Sentinel: host:port of each sentinel, comma-separated; the primary is REDIS_SENTINEL_NAME's. Wins over
   * REDIS_URL (whose password and TLS still apply to the primary); loses to REDIS_CLUSTER_NODES.
   */
  @Matches(/^$|^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, { message: 'REDIS_SENTINELS must be host:port[,host:port...]' })
  REDIS_SENTINELS = '';

  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'REDIS_SENTINEL_NAME must be 1-64 letters, digits, ., _ or -' })
  REDIS_SENTINEL_NAME = 'mymaster';

  /** Redis Cluster: host:port of some of its nodes, comma-separated; wins over REDIS_SENTINELS and REDIS_URL. */
  @Matches(/^$|^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, { message: 'REDIS_CLUSTER_NODES must be host:port[,host:port...]' })
  REDIS_CLUSTER_NODES = '';

  /**
   * Namespaces every Redis key (queue, cache, idempotency) so that deployments and test runs never meet. On a
   * Redis Cluster it must start with a hash tag, {name}: every key of ours and of the queues then lives in one
   * slot, so that scripts and transactions over many keys run there.
   */
  @Matches(/^(?=.{1,64}$)(\{[A-Za-z0-9_-]+\})?[A-Za-z0-9_-]*$/, {
    message: 'REDIS_PREFIX must be 1-64 letters, digits, _ or -, the first ones optionally a hash tag: {name}',
  })
  @Validate(HashTaggedOnCluster)
  REDIS_PREFIX = 'lvs';

  /** The API's address as partners reach it, for the OpenAPI document's servers; empty: each request's own origin. */
  @ValidateIf((settings: EnvironmentVariables) => settings.PUBLIC_BASE_URL !== '')
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/, {
    message: 'PUBLIC_BASE_URL must be an http(s) URL without a trailing slash, query or fragment',
  })
  PUBLIC_BASE_URL = '';

  @IsTimeZone()
  QUOTA_TIME_ZONE = 'UTC';

  @Matches(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { message: 'REGISTER_URL must be an http(s) origin' })
  REGISTER_URL = PRODUCTION_REGISTER_URL;

  @Transform(toInteger)
  @Min(100)
  @Max(60000)
  @IsInt()
  REGISTER_REQUEST_TIMEOUT_MS = 4000;

  @Transform(toInteger)
  @Min(1)
  @Max(1000)
  @IsInt()
  REGISTER_MAX_PER_SECOND = 10;

  @Transform(toInteger)
  @Min(100)
  @Max(60000)
  @IsInt()
  VERIFY_TIMEOUT_MS = 5000;

  @Transform(toInteger)
  @Min(1)
  @Max(256)
  @IsInt()
  WORKER_CONCURRENCY = 16;

  /** How long a worker's claim on a job lasts without renewal; a killed worker's job is retried after it. */
  @Transform(toInteger)
  @Min(1000)
  @Max(600000)
  @IsInt()
  WORKER_LOCK_DURATION_MS = 30000;

  /** How often workers look for jobs whose worker died. */
  @Transform(toInteger)
  @Min(500)
  @Max(600000)
  @IsInt()
  WORKER_STALLED_INTERVAL_MS = 30000;

  @Transform(toInteger)
  @Min(1)
  @Max(10)
  @IsInt()
  LOOKUP_ATTEMPTS = 3;

  /** Consecutive lookups that end with the register unavailable before the breaker opens for every process. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000)
  @IsInt()
  REGISTER_BREAKER_FAILURES = 5;

  /** How long an open breaker refuses new lookups before one probe may try the register again. */
  @Transform(toInteger)
  @Min(1)
  @Max(3600)
  @IsInt()
  REGISTER_BREAKER_COOLDOWN_SECONDS = 30;

  /**
   * Licence numbers whose answers should stay as licences change (register-watch): the worker looks each up every
   * REGISTER_CANARY_SECONDS and alerts on an answer a licence cannot give. Empty: no canaries.
   */
  @Transform(toList)
  @Matches(/^\d{16}$/, { each: true, message: 'REGISTER_CANARY_NUMBERS must be comma-separated 16-digit licence numbers' })
  REGISTER_CANARY_NUMBERS: string[] = [];

  @Transform(toInteger)
  @Min(1)
  @Max(86400)
  @IsInt()
  REGISTER_CANARY_SECONDS = 900;

  /** Where the worker sends operator alerts, as signed Standard Webhooks events; empty: none are sent. */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_ALERT_URL !== '')
  @Matches(/^https?:\/\/[^\s/]+\S*$/, { message: 'OPERATOR_ALERT_URL must be an http:// or https:// URL' })
  OPERATOR_ALERT_URL = '';

  /** Signs the operator alerts: a whsec_ secret, as a webhook endpoint has; required with OPERATOR_ALERT_URL. */
  @ValidateIf((settings: EnvironmentVariables) => settings.OPERATOR_ALERT_URL !== '' || settings.OPERATOR_ALERT_SECRET !== '')
  @Matches(/^whsec_[A-Za-z0-9+/]{43}=$/, {
    message: 'OPERATOR_ALERT_SECRET must be whsec_ and 32 bytes in base64, and is required with OPERATOR_ALERT_URL',
  })
  OPERATOR_ALERT_SECRET = '';

  /** The breaker open (or probing) this long makes a register.unavailable alert. */
  @Transform(toInteger)
  @Min(1)
  @Max(86400)
  @IsInt()
  ALERT_REGISTER_DOWN_SECONDS = 120;

  /** The oldest waiting live lookup this old makes a queue.backlog alert. */
  @Transform(toInteger)
  @Min(1)
  @Max(86400)
  @IsInt()
  ALERT_BACKLOG_SECONDS = 300;

  /** The oldest verification record waiting in Redis this old makes an evidence.drain_lagging alert. */
  @Transform(toInteger)
  @Min(1)
  @Max(86400)
  @IsInt()
  ALERT_EVIDENCE_LAG_SECONDS = 60;

  /** Lookups allowed to wait in the queue; beyond it new lookups are refused with 503, uncharged. */
  @Transform(toInteger)
  @Min(1)
  @Max(10000000)
  @IsInt()
  QUEUE_MAX_WAITING = 10000;

  /** Batch and re-check lookups one user may have waiting; beyond it that user's new lookups are refused with 503, uncharged. */
  @Transform(toInteger)
  @Min(1)
  @Max(10000000)
  @IsInt()
  USER_MAX_WAITING_LOOKUPS = 2000;

  /**
   * Live lookups (verify, verify-holder, search) one user may have waiting for the register, from admission until
   * the register answers, even after a 202; beyond it that user's new live lookups are refused with 503, uncharged.
   */
  @Transform(toInteger)
  @Min(1)
  @Max(100000)
  @IsInt()
  USER_MAX_LIVE_LOOKUPS = 100;

  /** Distinct dates of birth one user may have checked for one licence number in a month; past it, NOT_CHECKED. */
  @Transform(toInteger)
  @Min(1)
  @Max(1000)
  @IsInt()
  HOLDER_DATE_CHECKS_PER_NUMBER = 3;

  @Transform(toInteger)
  @Min(10)
  @Max(60000)
  @IsInt()
  LOOKUP_BACKOFF_MS = 500;

  @Transform(toInteger)
  @Min(1)
  @IsInt()
  CACHE_TTL_FOUND_SECONDS = 3600;

  @Transform(toInteger)
  @Min(1)
  @IsInt()
  CACHE_TTL_NOT_FOUND_SECONDS = 600;

  @Transform(toInteger)
  @Min(1)
  @IsInt()
  IDEMPOTENCY_TTL_SECONDS = 86400;

  /** How long batches and their results are kept. */
  @Transform(toInteger)
  @Min(1)
  @Max(3650)
  @IsInt()
  BATCH_RETENTION_DAYS = 30;

  /** Months of the per-number ledger (quota_charges) kept, the current one included; the monthly totals stay. */
  @Transform(toInteger)
  @Min(1)
  @Max(1200)
  @IsInt()
  LEDGER_RETENTION_MONTHS = 25;
  /** How long verification records are kept (by answeredAt); six years by default, as assessors ask. */
  @Transform(toInteger)
  @Min(1)
  @Max(36500)
  @IsInt()
  EVIDENCE_RETENTION_DAYS = 2190;

  /** How long activity log events are kept (by occurredAt); six years by default, as verification records. */
  @Transform(toInteger)
  @Min(1)
  @Max(36500)
  @IsInt()
  ACTIVITY_RETENTION_DAYS = 2190;

  /** Every watched number is re-checked at least this often (if the register share allows). */
  @Transform(toInteger)
  @Min(1)
  @Max(31 * 86400)
  @IsInt()
  WATCH_RECHECK_SECONDS = 86400;

  /** The largest part of REGISTER_MAX_PER_SECOND that watchlist re-checks may use. */
  @Transform(toDecimal)
  @Min(0.01)
  @Max(1)
  @IsNumber()
  WATCH_MAX_REGISTER_SHARE = 0.5;

  /** Entries one user's watchlist may hold, unless set per user (keys set-watch-limit): past it, WATCHLIST_FULL. */
  @Transform(toInteger)
  @Min(1)
  @Max(10000000)
  @IsInt()
  WATCH_MAX_ENTRIES_PER_USER = 10000;

  /**
   * 32 bytes as 64 hex digits: encrypts webhook signing secrets when WEBHOOK_SECRET_KEYS is empty. Both empty:
   * a fixed development key, with a warning; refused in production.
   */
  @Validate(SafeInProduction)
  @Matches(/^([0-9a-fA-F]{64})?$/, { message: 'WEBHOOK_SECRET_KEY must be 64 hex digits (32 bytes)' })
  WEBHOOK_SECRET_KEY = '';

  /**
   * 32 bytes as 64 hex digits: keys the digests of holder data (dates of birth, name searches) and encrypts what
   * the worker must read back, when HOLDER_DATA_KEYS is empty. Both empty: a fixed development key, with a
   * warning; refused in production.
   */
  @Validate(SafeInProduction)
  @Matches(/^([0-9a-fA-F]{64})?$/, { message: 'HOLDER_DATA_KEY must be 64 hex digits (32 bytes)' })
  HOLDER_DATA_KEY = '';

  /** Holder data keys for rotation, comma-separated: the first digests and seals, every one opens; takes precedence over HOLDER_DATA_KEY. */
  @Transform(toList)
  @Validate(SafeInProduction)
  @Matches(/^[0-9a-fA-F]{64}$/, { each: true, message: 'HOLDER_DATA_KEYS must be comma-separated keys of 64 hex digits' })
  HOLDER_DATA_KEYS: string[] = [];

  /** Keys for rotation, comma-separated: the first encrypts, every one decrypts; takes precedence over WEBHOOK_SECRET_KEY. */
  @Transform(toList)
  @Validate(SafeInProduction)
  @Matches(/^[0-9a-fA-F]{64}$/, { each: true, message: 'WEBHOOK_SECRET_KEYS must be comma-separated keys of 64 hex digits' })
  WEBHOOK_SECRET_KEYS: string[] = [];

  /**
   * Ed25519 keys that sign verification receipts, comma-separated, each the base64url of its 32-byte seed
   * (`npm run admin -- receipt-key` makes one): the first signs, every one stays published in the JWKS. Empty: a
   * fixed development key, with a warning; refused in production.
   */
  @Validate(SafeInProduction)
  @Transform(toList)
  @Matches(/^[A-Za-z0-9_-]{43}$/, { each: true, message: 'RECEIPT_SIGNING_KEYS must be comma-separated keys of 43 base64url characters (32 bytes)' })
  RECEIPT_SIGNING_KEYS: string[] = [];

  /** Seconds to wait before each delivery attempt; its length is the number of attempts. */
  @Matches(/^\d+(,\d+){0,19}$/, { message: 'WEBHOOK_RETRY_SCHEDULE_SECONDS must be 1-20 comma-separated whole seconds' })
  WEBHOOK_RETRY_SCHEDULE_SECONDS = '0,5,300,1800,7200,18000,36000,36000';

  /** Serves the partner console at /console (AppModule leaves ConsoleModule out otherwise). */
  @Transform(toBoolean)
  @IsBoolean()
  CONSOLE_ENABLED = true;

  /**
   * Lets an API key sign in to the console (a session that acts with the key's role, attributed to the key). Unset:
   * on outside production, off in production; true is refused in production (consoleKeySignIn).
   */
  @IsOptional()
  @Transform(toBoolean)
  @Validate(SafeInProduction)
  @IsBoolean()
  CONSOLE_KEY_SIGN_IN?: boolean;

  /** A console session ends after this many minutes without a request. */
  @Transform(toInteger)
  @Min(1)
  @Max(1440)
  @IsInt()
  CONSOLE_IDLE_MINUTES = 30;

  /** A console session ends this many hours after sign-in, however busy. */
  @Transform(toInteger)
  @Min(1)
  @Max(168)
  @IsInt()
  CONSOLE_SESSION_HOURS = 12;

  /** smtp:// or smtps:// address (user and password in it) through which invitations are e-mailed; empty: links are only shown. */
  @Matches(/^(smtps?:\/\/\S+)?$/, { message: 'SMTP_URL must be empty or smtp://[user:password@]host:port (smtps:// for TLS)' })
  SMTP_URL = '';

  /** The sender of the e-mails the service sends (invitations). */
  @MaxLength(254)
  SMTP_FROM = 'Licence Verification <no-reply@localhost>';

  /** Allows http and private, loopback and link-local webhook addresses: for tests and local demos only; refused in production. */
  @Transform(toBoolean)
  @Validate(SafeInProduction)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /**
   * DNS servers the API and the worker ask for webhook hosts (address or address:port, IPv6 as [address]:port),
   * comma-separated; empty: the system's resolver. Every address a host resolves to is checked before connecting.
   */
  @Transform(toList)
  @Validate(IsDnsServer, { each: true })
  WEBHOOK_DNS_SERVERS: string[] = [];

  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';

  @IsIn(['json', 'text'])
  LOG_FORMAT = 'json';

  /** The OTLP/HTTP collector's base URL that traces go to (its /v1/traces); empty: no tracing, and nothing of it loaded. */
  @ValidateIf((settings: EnvironmentVariables) => settings.OTEL_EXPORTER_OTLP_ENDPOINT !== '')
  @Matches(/^https?:\/\/[^\s/]+\S*$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT = '';

  /**
   * The share of requests and jobs that begin a trace, chosen by trace id (the rest of a trace follows its start):
   * below 1, fewer spans reach the collector.
   */
  @Transform(toDecimal)
  @Min(0)
  @Max(1)
  @IsNumber()
  TRACE_SAMPLE_RATIO = 1;

  /** The worker's operators' listener (/metrics, /health/*); 0 picks a free port. */
  @Transform(toInteger)
  @Min(0)
  @Max(65535)
  @IsInt()
  WORKER_HTTP_PORT = 3001;

  /** API readiness fails when no worker has written its heartbeat for this long. */
  @Transform(toInteger)
  @Min(1000)
  @Max(600000)
  @IsInt()
  WORKER_HEARTBEAT_TIMEOUT_MS = 30000;

  /** How long a SIGTERM'd process may finish in-flight work before it exits regardless. */
  @Transform(toInteger)
  @Min(0)
  @Max(600000)
  @IsInt()
  SHUTDOWN_GRACE_MS = 10000;

  /** Enables the queue dashboard at /admin/queues, protected by this token; empty keeps it off. At least 32 characters in production. */
  @Validate(SafeInProduction)
  @IsString()
  ADMIN_TOKEN = '';

  /** Lets the queue dashboard pause, empty, retry and delete; off, it only shows the queues. */
  @Transform(toBoolean)
  @IsBoolean()
  ADMIN_DASHBOARD_WRITE = false;
}

export type AppSettings = Readonly<EnvironmentVariables>;

/** The address the API's operators' listener binds to: OPERATOR_HOST, else HOST. */
export function operatorsHost(settings: Pick<AppSettings, 'OPERATOR_HOST' | 'HOST'>): string {
  return settings.OPERATOR_HOST || settings.HOST;
}

const SETTING_NAMES = new Set(Object.keys(new EnvironmentVariables()));

/**
 * Validates raw environment variables; throws one error naming every bad variable, one line each (a process
 * that refuses to start prints exactly that: one line per setting to fix, whole in any log collector).
 * ConfigModule's `validate` and the command-line tools (readSettings) both use it. An empty variable counts
 * as unset: it takes the default.
 */
export function validateEnvironment(raw: Record<string, unknown>): AppSettings {
  const given = Object.fromEntries(Object.entries(raw).filter(([name, value]) => SETTING_NAMES.has(name) && value !== ''));
  const settings = plainToInstance(EnvironmentVariables, given);
  const problems = validateSync(settings, { stopAtFirstError: true, validationError: { target: false, value: false } }).map(
    (error) => `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')}`,
  );
  if (problems.length > 0) {
    throw new Error(problems.map((problem) => `Invalid configuration: ${problem}`).join('\n'));
  }
  return Object.freeze(settings);
}
