import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, DEVELOPMENT_RECEIPT_KEY, DEVELOPMENT_WEBHOOK_KEY_HEX } from './development-keys';
import { operatorsHost, validateEnvironment } from './env.schema';

/** The Error validateEnvironment throws for `raw`. */
function errorOf(raw: Record<string, unknown>): Error {
  try {
    validateEnvironment(raw);
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error(`validateEnvironment(${JSON.stringify(raw)}) did not throw`);
}

/** The variable named at the start of each problem line of an "Invalid configuration" message. */
function namedVariables(message: string): string[] {
  return message.split('\n').map((line) => line.replace(/^Invalid configuration: /, '').split(':', 1)[0]);
}

describe('validateEnvironment', () => {
  describe('defaults', () => {
    it('gives every documented default for an empty environment', () => {
      expect(validateEnvironment({})).toMatchObject({
        PORT: 3000,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/licence_verification',
        REDIS_URL: 'redis://127.0.0.1:6379',
        REGISTER_URL: 'https://services.sia.homeoffice.gov.uk',
        REGISTER_REQUEST_TIMEOUT_MS: 4000,
        VERIFY_TIMEOUT_MS: 5000,
        WORKER_CONCURRENCY: 16,
        REGISTER_MAX_PER_SECOND: 10,
        LOOKUP_ATTEMPTS: 3,
        CACHE_TTL_FOUND_SECONDS: 3600,
        CACHE_TTL_NOT_FOUND_SECONDS: 600,
        IDEMPOTENCY_TTL_SECONDS: 86400,
        QUOTA_TIME_ZONE: 'UTC',
        MIGRATIONS_RUN: true,
      });
    });

    it('gives the whole default settings object for an empty environment', () => {
      expect({ ...validateEnvironment({}) }).toEqual({
        HOST: '0.0.0.0',
        PORT: 3000,
        OPERATOR_PORT: null,
        OPERATOR_PUBLIC_URL: '',
        OPERATOR_OIDC_ISSUER: '',
        OPERATOR_OIDC_CLIENT_ID: '',
        OPERATOR_OIDC_CLIENT_SECRET: '',
        OPERATOR_OIDC_DOMAINS: '',
        OPERATOR_OIDC_ROLE: 'support',
        OPERATOR_HOST: '',
        REQUEST_HEADERS_TIMEOUT_MS: 5000,
        REQUEST_BODY_TIMEOUT_MS: 10000,
        KEEP_ALIVE_TIMEOUT_MS: 65000,
        CORS_ORIGINS: [],
        TRUST_PROXY: [],
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/licence_verification',
        MIGRATIONS_RUN: true,
        DATABASE_CONNECT_TIMEOUT_MS: 1000,
        DATABASE_MIGRATION_URL: '',
        DATABASE_PREPARED_STATEMENTS: true,
        DATABASE_STATEMENT_TIMEOUT_MS: 5000,
        DATABASE_CHARGE_TIMEOUT_MS: 800,
        EXPORT_MIN_BYTES_PER_SECOND: 8192,
        AUTH_CACHE_TTL_SECONDS: 60,
        AUTH_CACHE_MAX_KEYS: 10000,
        RATE_LIMIT_PER_SECOND: 20,
        RATE_LIMIT_BURST: 40,
        TEST_MODE_ENABLED: true,
        TEST_MODE_QUOTA: 1000,
        AUTH_FAILURES_PER_MINUTE: 60,
        SIGN_IN_FAILURES_PER_ADDRESS: 10,
        SIGN_IN_FAILURES_PER_EMAIL: 5,
        INVITATION_HOURS: 72,
        PASSWORD_RESET_MINUTES: 60,
        REDIS_URL: 'redis://127.0.0.1:6379',
        DEPENDENCY_TIMEOUT_MS: 800,
        REDIS_SENTINELS: '',
        REDIS_SENTINEL_NAME: 'mymaster',
        REDIS_CLUSTER_NODES: '',
        REDIS_PREFIX: 'lvs',
        PUBLIC_BASE_URL: '',
        QUOTA_TIME_ZONE: 'UTC',
        REGISTER_URL: 'https://services.sia.homeoffice.gov.uk',
        REGISTER_REQUEST_TIMEOUT_MS: 4000,
        REGISTER_MAX_PER_SECOND: 10,
        VERIFY_TIMEOUT_MS: 5000,
        WORKER_CONCURRENCY: 16,
        WORKER_LOCK_DURATION_MS: 30000,
        WORKER_STALLED_INTERVAL_MS: 30000,
        LOOKUP_ATTEMPTS: 3,
        REGISTER_BREAKER_FAILURES: 5,
        REGISTER_BREAKER_COOLDOWN_SECONDS: 30,
        REGISTER_CANARY_NUMBERS: [],
        REGISTER_CANARY_SECONDS: 900,
        OPERATOR_ALERT_URL: '',
        OPERATOR_ALERT_SECRET: '',
        ALERT_REGISTER_DOWN_SECONDS: 120,
        ALERT_BACKLOG_SECONDS: 300,
        ALERT_EVIDENCE_LAG_SECONDS: 60,
        QUEUE_MAX_WAITING: 10000,
        USER_MAX_WAITING_LOOKUPS: 2000,
        USER_MAX_LIVE_LOOKUPS: 100,
        HOLDER_DATE_CHECKS_PER_NUMBER: 3,
        LOOKUP_BACKOFF_MS: 500,
        CACHE_TTL_FOUND_SECONDS: 3600,
        CACHE_TTL_NOT_FOUND_SECONDS: 600,
        IDEMPOTENCY_TTL_SECONDS: 86400,
        BATCH_RETENTION_DAYS: 30,
        LEDGER_RETENTION_MONTHS: 25,
        EVIDENCE_RETENTION_DAYS: 2190,
        ACTIVITY_RETENTION_DAYS: 2190,
        WATCH_RECHECK_SECONDS: 86400,
        WATCH_MAX_REGISTER_SHARE: 0.5,
        WATCH_MAX_ENTRIES_PER_USER: 10000,
        WEBHOOK_SECRET_KEY: '',
        HOLDER_DATA_KEY: '',
        HOLDER_DATA_KEYS: [],
        WEBHOOK_SECRET_KEYS: [],
        RECEIPT_SIGNING_KEYS: [],
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,5,300,1800,7200,18000,36000,36000',
        CONSOLE_ENABLED: true,
        CONSOLE_KEY_SIGN_IN: undefined,
        CONSOLE_IDLE_MINUTES: 30,
        CONSOLE_SESSION_HOURS: 12,
        SMTP_URL: '',
        SMTP_FROM: 'Licence Verification <no-reply@localhost>',
        WEBHOOK_ALLOW_PRIVATE_URLS: false,
        WEBHOOK_DNS_SERVERS: [],
        LOG_LEVEL: 'log',
        LOG_FORMAT: 'json',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        TRACE_SAMPLE_RATIO: 1,
        WORKER_HTTP_PORT: 3001,
        WORKER_HEARTBEAT_TIMEOUT_MS: 30000,
        SHUTDOWN_GRACE_MS: 10000,
        ADMIN_TOKEN: '',
        ADMIN_DASHBOARD_WRITE: false,
        NODE_ENV: '',
      });
    });

    it('reads the monitoring settings and names each bad one', () => {
      const settings = validateEnvironment({
        WATCH_RECHECK_SECONDS: '5',
        WATCH_MAX_REGISTER_SHARE: '0.25',
        WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,2',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      });
      expect([settings.WATCH_RECHECK_SECONDS, settings.WATCH_MAX_REGISTER_SHARE, settings.WEBHOOK_ALLOW_PRIVATE_URLS]).toEqual([5, 0.25, true]);
      expect(() => validateEnvironment({ WATCH_MAX_REGISTER_SHARE: '2', WEBHOOK_SECRET_KEY: 'short', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,,5' })).toThrow(
        'Invalid configuration: WATCH_MAX_REGISTER_SHARE: WATCH_MAX_REGISTER_SHARE must not be greater than 1\n' +
          'Invalid configuration: WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY must be 64 hex digits (32 bytes)\n' +
          'Invalid configuration: WEBHOOK_RETRY_SCHEDULE_SECONDS: WEBHOOK_RETRY_SCHEDULE_SECONDS must be 1-20 comma-separated whole seconds',
      );
    });

    it('returns frozen settings', () => {
      expect(Object.isFrozen(validateEnvironment({}))).toBe(true);
    });
  });

  describe('conversions', () => {
    it("keeps the operators' listener off unless OPERATOR_PORT is given, 0 (a free port) included", () => {
      expect(validateEnvironment({ OPERATOR_PORT: '' }).OPERATOR_PORT).toBeNull();
      expect(validateEnvironment({ OPERATOR_PORT: '0' }).OPERATOR_PORT).toBe(0);
      expect(validateEnvironment({ OPERATOR_PORT: '9100' }).OPERATOR_PORT).toBe(9100);
      expect(() => validateEnvironment({ OPERATOR_PORT: '65536' })).toThrow(
        'Invalid configuration: OPERATOR_PORT: OPERATOR_PORT must not be greater than 65535',
      );
      expect(() => validateEnvironment({ OPERATOR_PORT: 'metrics' })).toThrow(
        'Invalid configuration: OPERATOR_PORT: OPERATOR_PORT must be an integer number',
      );
    });

    it("binds the operators' listener to OPERATOR_HOST, else to HOST", () => {
      expect(operatorsHost(validateEnvironment({ HOST: '10.0.0.5' }))).toBe('10.0.0.5');
      expect(operatorsHost(validateEnvironment({ HOST: '0.0.0.0', OPERATOR_HOST: '127.0.0.1' }))).toBe('127.0.0.1');
    });

    it('turns a numeric PORT string into a number', () => {
      expect(validateEnvironment({ PORT: '8080' }).PORT).toBe(8080);
    });

    it('turns numeric strings of every integer setting into numbers', () => {
      const settings = validateEnvironment({
        VERIFY_TIMEOUT_MS: '2500',
        WORKER_CONCURRENCY: '4',
        LOOKUP_ATTEMPTS: '1',
        CACHE_TTL_FOUND_SECONDS: '60',
        IDEMPOTENCY_TTL_SECONDS: '1',
      });
      expect([
        settings.VERIFY_TIMEOUT_MS,
        settings.WORKER_CONCURRENCY,
        settings.LOOKUP_ATTEMPTS,
        settings.CACHE_TTL_FOUND_SECONDS,
        settings.IDEMPOTENCY_TTL_SECONDS,
      ]).toEqual([2500, 4, 1, 60, 1]);
    });

    it('accepts white space around a number', () => {
      expect(validateEnvironment({ PORT: ' 8080 ' }).PORT).toBe(8080);
    });

    it("turns MIGRATIONS_RUN 'false' into false", () => {
      expect(validateEnvironment({ MIGRATIONS_RUN: 'false' }).MIGRATIONS_RUN).toBe(false);
    });

    it("turns MIGRATIONS_RUN 'true' into true", () => {
      expect(validateEnvironment({ MIGRATIONS_RUN: 'true' }).MIGRATIONS_RUN).toBe(true);
    });

    it('keeps a valid IANA QUOTA_TIME_ZONE', () => {
      expect(validateEnvironment({ QUOTA_TIME_ZONE: 'Europe/London' }).QUOTA_TIME_ZONE).toBe('Europe/London');
    });

    it('keeps a DATABASE_URL with user, password, host and port', () => {
      expect(validateEnvironment({ DATABASE_URL: 'postgresql://app:secret@db:5433/lvs_test' }).DATABASE_URL).toBe(
        'postgresql://app:secret@db:5433/lvs_test',
      );
    });

    it.each([
      'postgres://app:secret@db.example.com:5432/lvs?sslmode=require',
      'postgresql://app:p%40ss%2Fw%3Ard@db:5432/lvs',
      'postgres://app@[::1]:5432/lvs',
      'postgres://db/lvs?sslmode=verify-full&application_name=lvs',
    ])('keeps the DATABASE_URL %s', (url) => {
      expect(validateEnvironment({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    });

    it('accepts a hash-tagged REDIS_PREFIX with cluster nodes', () => {
      const settings = validateEnvironment({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2:7000', REDIS_PREFIX: '{lvs}-blue' });
      expect([settings.REDIS_CLUSTER_NODES, settings.REDIS_PREFIX]).toEqual(['10.0.0.1:7000,10.0.0.2:7000', '{lvs}-blue']);
    });

    it('keeps a rediss:// REDIS_URL', () => {
      expect(validateEnvironment({ REDIS_URL: 'rediss://cache:6380/2' }).REDIS_URL).toBe('rediss://cache:6380/2');
    });

    it('keeps an http REGISTER_URL with a port', () => {
      expect(validateEnvironment({ REGISTER_URL: 'http://127.0.0.1:4010' }).REGISTER_URL).toBe('http://127.0.0.1:4010');
    });
  });

  describe('OPERATOR_PUBLIC_URL', () => {
    it.each(['https://ops.example.org', 'http://127.0.0.1:9100'])('takes the origin %s', (url) => {
      expect(validateEnvironment({ OPERATOR_PUBLIC_URL: url }).OPERATOR_PUBLIC_URL).toBe(url);
    });

    it.each(['https://ops.example.org/', 'https://ops.example.org/operator', 'ops.example.org'])('refuses %s, which is no origin', (url) => {
      expect(() => validateEnvironment({ OPERATOR_PUBLIC_URL: url })).toThrow(
        new Error('Invalid configuration: OPERATOR_PUBLIC_URL: OPERATOR_PUBLIC_URL must be an http(s) origin, without a path, query or fragment'),
      );
    });
  });

  describe('OPERATOR_OIDC_*', () => {
    const sso = { OPERATOR_OIDC_CLIENT_ID: 'ops', OPERATOR_OIDC_CLIENT_SECRET: 's3cret', OPERATOR_OIDC_DOMAINS: 'example.org, ops.example.org' };

    it.each(['https://login.example.org', 'https://login.example.org/tenant/v2.0', 'http://localhost:4000', 'http://127.0.0.1:4000/oidc'])(
      'takes the issuer %s with its client and domains',
      (issuer) => {
        expect(validateEnvironment({ ...sso, OPERATOR_OIDC_ISSUER: issuer }).OPERATOR_OIDC_ISSUER).toBe(issuer);
      },
    );

    it.each(['http://login.example.org', 'https://login.example.org/?tenant=1', 'login.example.org'])('refuses the issuer %s', (issuer) => {
      expect(() => validateEnvironment({ ...sso, OPERATOR_OIDC_ISSUER: issuer })).toThrow(
        new Error(
          'Invalid configuration: OPERATOR_OIDC_ISSUER: OPERATOR_OIDC_ISSUER must be an https URL (http only on localhost), without a query or fragment',
        ),
      );
    });

    it('needs the client id, the secret and the domains with an issuer, and a role of operators', () => {
      expect(() => validateEnvironment({ OPERATOR_OIDC_ISSUER: 'https://login.example.org' })).toThrow(
        /OPERATOR_OIDC_CLIENT_ID is required with OPERATOR_OIDC_ISSUER.*OPERATOR_OIDC_CLIENT_SECRET is required with OPERATOR_OIDC_ISSUER.*OPERATOR_OIDC_DOMAINS must list/s,
      );
      expect(() => validateEnvironment({ OPERATOR_OIDC_ROLE: 'admin' })).toThrow(/OPERATOR_OIDC_ROLE/);
    });
  });

  describe('PUBLIC_BASE_URL', () => {
    it.each(['https://api.example.com', 'http://127.0.0.1:3000', 'https://partners.example.com/licence-api'])('keeps %s', (url) => {
      expect(validateEnvironment({ PUBLIC_BASE_URL: url }).PUBLIC_BASE_URL).toBe(url);
    });

    it.each(['api.example.com', 'https://api.example.com/', 'https://api.example.com/v1?x=1', 'ftp://api.example.com'])(
      'rejects %s with the exact message',
      (url) => {
        expect(() => validateEnvironment({ PUBLIC_BASE_URL: url })).toThrow(
          new Error('Invalid configuration: PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an http(s) URL without a trailing slash, query or fragment'),
        );
      },
    );
  });

  describe('secrets in production', () => {
    const key = '3f9a1c07e5b24d68a0c1e2f3b4d5a6978e1f2a3b4c5d6e7f8091a2b3c4d5e6f7';
    const otherKey = 'c4d5e6f73f9a1c07e5b24d68a0c1e2f3b4d5a6978e1f2a3b4c5d6e7f8091a2b3';
    const token = 'q7Lm2Xv9Rt4Kp8Wz3Nc6Hb5Jd1Fg0Sa2';
    const receiptKey = 'Qm9uZWQgcmVjZWlwdCBrZXkgZm9yIHRoZSBzcGVjczA';

    it('refuses unset RECEIPT_SIGNING_KEYS with one line naming it, and reads a list', () => {
      expect(errorOf({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key, HOLDER_DATA_KEY: key }).message).toBe(
        'Invalid configuration: RECEIPT_SIGNING_KEYS: RECEIPT_SIGNING_KEYS must list at least one key (npm run admin -- receipt-key) when NODE_ENV is production',
      );
      expect(
        validateEnvironment({
          NODE_ENV: 'production',
          WEBHOOK_SECRET_KEY: key,
          HOLDER_DATA_KEY: key,
          RECEIPT_SIGNING_KEYS: `${receiptKey}, ${'B'.repeat(43)}`,
        }).RECEIPT_SIGNING_KEYS,
      ).toEqual([receiptKey, 'B'.repeat(43)]);
      expect(namedVariables(errorOf({ RECEIPT_SIGNING_KEYS: 'short' }).message)).toEqual(['RECEIPT_SIGNING_KEYS']);
    });

    it('refuses an unset or empty WEBHOOK_SECRET_KEY with one line naming it', () => {
      for (const raw of [
        { NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, HOLDER_DATA_KEY: key },
        { NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: '', HOLDER_DATA_KEY: key },
      ]) {
        expect(errorOf(raw).message).toBe(
          'Invalid configuration: WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production',
        );
      }
    });

    it('refuses an unset or empty HOLDER_DATA_KEY with one line naming it', () => {
      for (const raw of [
        { NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: key },
        { NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: key, HOLDER_DATA_KEY: '' },
      ]) {
        expect(errorOf(raw).message).toBe(
          'Invalid configuration: HOLDER_DATA_KEY: HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production',
        );
      }
    });

    it('starts in production with WEBHOOK_SECRET_KEYS alone, and refuses a malformed entry of it', () => {
      expect(
        validateEnvironment({
          NODE_ENV: 'production',
          RECEIPT_SIGNING_KEYS: receiptKey,
          HOLDER_DATA_KEY: key,
          WEBHOOK_SECRET_KEYS: ` ${key} , ${otherKey}`,
        }).WEBHOOK_SECRET_KEYS,
      ).toEqual([key, otherKey]);
      expect(
        errorOf({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, HOLDER_DATA_KEY: key, WEBHOOK_SECRET_KEYS: `${key},short` }).message,
      ).toBe('Invalid configuration: WEBHOOK_SECRET_KEYS: WEBHOOK_SECRET_KEYS must be comma-separated keys of 64 hex digits');
    });

    it('starts in production with HOLDER_DATA_KEYS alone, and refuses a malformed entry of it', () => {
      expect(
        validateEnvironment({
          NODE_ENV: 'production',
          RECEIPT_SIGNING_KEYS: receiptKey,
          WEBHOOK_SECRET_KEY: key,
          HOLDER_DATA_KEYS: ` ${key} , ${otherKey}`,
        }).HOLDER_DATA_KEYS,
      ).toEqual([key, otherKey]);
      expect(
        errorOf({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: key, HOLDER_DATA_KEYS: `${key},short` }).message,
      ).toBe('Invalid configuration: HOLDER_DATA_KEYS: HOLDER_DATA_KEYS must be comma-separated keys of 64 hex digits');
    });

    it('refuses a short ADMIN_TOKEN with one line naming it', () => {
      expect(
        errorOf({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: key, HOLDER_DATA_KEY: key, ADMIN_TOKEN: 'x'.repeat(31) })
          .message,
      ).toBe(
        'Invalid configuration: ADMIN_TOKEN: ADMIN_TOKEN must be at least 32 characters when NODE_ENV is production (or unset, which keeps the dashboard off)',
      );
    });

    it('tells a malformed key in production only its format', () => {
      expect(
        namedVariables(errorOf({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: 'short', HOLDER_DATA_KEY: key }).message),
      ).toEqual(['WEBHOOK_SECRET_KEY']);
      expect(errorOf({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: 'short', HOLDER_DATA_KEY: key }).message).toContain(
        'must be 64 hex digits',
      );
    });

    it('refuses weak keys, a repetitive ADMIN_TOKEN and WEBHOOK_ALLOW_PRIVATE_URLS, one line each naming the setting', () => {
      const raw = {
        NODE_ENV: 'production',
        WEBHOOK_SECRET_KEY: '00'.repeat(32),
        WEBHOOK_SECRET_KEYS: `${key},${DEVELOPMENT_WEBHOOK_KEY_HEX}`,
        HOLDER_DATA_KEY: DEVELOPMENT_HOLDER_DATA_KEY_HEX,
        RECEIPT_SIGNING_KEYS: DEVELOPMENT_RECEIPT_KEY,
        ADMIN_TOKEN: 't'.repeat(32),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      };
      expect(errorOf(raw).message.split('\n').sort()).toEqual([
        'Invalid configuration: ADMIN_TOKEN: ADMIN_TOKEN must have at least 8 different characters when NODE_ENV is production (openssl rand -hex 24 makes one)',
        'Invalid configuration: HOLDER_DATA_KEY: HOLDER_DATA_KEY must not be a development key published in the source when NODE_ENV is production',
        'Invalid configuration: RECEIPT_SIGNING_KEYS: RECEIPT_SIGNING_KEYS must not list the development key published in the source when NODE_ENV is production',
        'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS: WEBHOOK_ALLOW_PRIVATE_URLS must be false when NODE_ENV is production: it lets webhooks reach internal addresses',
        'Invalid configuration: WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY must not be one byte repeated (such as all zeros) when NODE_ENV is production',
        'Invalid configuration: WEBHOOK_SECRET_KEYS: WEBHOOK_SECRET_KEYS must not be a development key published in the source when NODE_ENV is production',
      ]);
    });

    it('starts in production with a key and a 32-character token, or with no token at all', () => {
      expect(
        validateEnvironment({
          NODE_ENV: 'production',
          RECEIPT_SIGNING_KEYS: receiptKey,
          WEBHOOK_SECRET_KEY: key,
          HOLDER_DATA_KEY: otherKey,
          ADMIN_TOKEN: token,
        }).NODE_ENV,
      ).toBe('production');
      expect(
        validateEnvironment({ NODE_ENV: 'production', RECEIPT_SIGNING_KEYS: receiptKey, WEBHOOK_SECRET_KEY: key, HOLDER_DATA_KEY: key }).ADMIN_TOKEN,
      ).toBe('');
    });

    it('accepts both development values outside production', () => {
      expect(validateEnvironment({ NODE_ENV: 'development', ADMIN_TOKEN: 'x' }).ADMIN_TOKEN).toBe('x');
      expect(validateEnvironment({ ADMIN_TOKEN: 'x' }).WEBHOOK_SECRET_KEY).toBe('');
    });
  });

  describe('unset and unknown variables', () => {
    it('ignores unknown variables', () => {
      const settings = validateEnvironment({ PATH: '/usr/bin', HOME: '/root', SOMETHING: 'abc' });
      expect(['PATH', 'HOME', 'SOMETHING'].filter((name) => name in settings)).toEqual([]);
      expect(settings.PORT).toBe(3000);
    });

    it('counts an empty PORT as unset', () => {
      expect(validateEnvironment({ PORT: '' }).PORT).toBe(3000);
    });

    it('counts an empty QUOTA_TIME_ZONE as unset', () => {
      expect(validateEnvironment({ QUOTA_TIME_ZONE: '' }).QUOTA_TIME_ZONE).toBe('UTC');
    });

    it('counts an empty MIGRATIONS_RUN as unset', () => {
      expect(validateEnvironment({ MIGRATIONS_RUN: '' }).MIGRATIONS_RUN).toBe(true);
    });

    it("counts an empty PUBLIC_BASE_URL as unset: each request's own origin", () => {
      expect(validateEnvironment({ PUBLIC_BASE_URL: '' }).PUBLIC_BASE_URL).toBe('');
    });

    it('counts empty URLs as unset', () => {
      const settings = validateEnvironment({ DATABASE_URL: '', REDIS_URL: '', REGISTER_URL: '' });
      expect([settings.DATABASE_URL, settings.REDIS_URL, settings.REGISTER_URL]).toEqual([
        'postgres://postgres@127.0.0.1:5432/licence_verification',
        'redis://127.0.0.1:6379',
        'https://services.sia.homeoffice.gov.uk',
      ]);
    });
  });

  describe('bounds', () => {
    it.each([
      ['PORT', '0', 0],
      ['PORT', '65535', 65535],
      ['VERIFY_TIMEOUT_MS', '100', 100],
      ['VERIFY_TIMEOUT_MS', '60000', 60000],
      ['WORKER_CONCURRENCY', '1', 1],
      ['WORKER_CONCURRENCY', '256', 256],
      ['LOOKUP_ATTEMPTS', '10', 10],
      ['REGISTER_MAX_PER_SECOND', '1000', 1000],
      ['DEPENDENCY_TIMEOUT_MS', '100', 100],
      ['REGISTER_BREAKER_FAILURES', '1', 1],
      ['REGISTER_BREAKER_COOLDOWN_SECONDS', '3600', 3600],
      ['USER_MAX_WAITING_LOOKUPS', '1', 1],
      ['QUEUE_MAX_WAITING', '1', 1],
      ['REGISTER_CANARY_SECONDS', '1', 1],
      ['ALERT_REGISTER_DOWN_SECONDS', '1', 1],
      ['ALERT_BACKLOG_SECONDS', '1', 1],
      ['ALERT_EVIDENCE_LAG_SECONDS', '1', 1],
    ])('accepts %s=%s', (name, value, expected) => {
      expect(validateEnvironment({ [name]: value })[name as 'PORT']).toBe(expected);
    });

    it.each([
      ['PORT', '-1'],
      ['PORT', '65536'],
      ['PORT', '3000.5'],
      ['PORT', '1e3'],
      ['VERIFY_TIMEOUT_MS', '99'],
      ['VERIFY_TIMEOUT_MS', '60001'],
      ['WORKER_CONCURRENCY', '0'],
      ['WORKER_CONCURRENCY', '257'],
      ['LOOKUP_ATTEMPTS', '0'],
      ['LOOKUP_ATTEMPTS', '11'],
      ['CACHE_TTL_FOUND_SECONDS', '0'],
      ['IDEMPOTENCY_TTL_SECONDS', '0'],
      ['BATCH_RETENTION_DAYS', '0'],
      ['BATCH_RETENTION_DAYS', '3651'],
      ['EVIDENCE_RETENTION_DAYS', '0'],
      ['ACTIVITY_RETENTION_DAYS', '0'],
      ['ACTIVITY_RETENTION_DAYS', '36501'],
      ['EVIDENCE_RETENTION_DAYS', '36501'],
      ['DEPENDENCY_TIMEOUT_MS', '99'],
      ['REGISTER_BREAKER_FAILURES', '0'],
      ['REGISTER_BREAKER_COOLDOWN_SECONDS', '0'],
      ['USER_MAX_WAITING_LOOKUPS', '0'],
      ['QUEUE_MAX_WAITING', '0'],
      ['REGISTER_CANARY_SECONDS', '0'],
      ['ALERT_REGISTER_DOWN_SECONDS', '0'],
      ['REGISTER_CANARY_NUMBERS', '1011001544208079,12345'],
      ['OPERATOR_ALERT_SECRET', 'not-a-secret'],
    ])('rejects %s=%s, naming only that variable', (name, value) => {
      const error = errorOf({ [name]: value });
      expect(namedVariables(error.message)).toEqual([name]);
    });
  });

  describe('register watch', () => {
    it('reads the canaries and the operator alert endpoint', () => {
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      const settings = validateEnvironment({
        REGISTER_CANARY_NUMBERS: '1011001544208079, 1011001544208080',
        OPERATOR_ALERT_URL: 'https://alerts.example/lvs',
        OPERATOR_ALERT_SECRET: secret,
      });
      expect([settings.REGISTER_CANARY_NUMBERS, settings.OPERATOR_ALERT_URL, settings.OPERATOR_ALERT_SECRET]).toEqual([
        ['1011001544208079', '1011001544208080'],
        'https://alerts.example/lvs',
        secret,
      ]);
    });

    it('refuses an alert URL that is not http(s)', () => {
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      expect(namedVariables(errorOf({ OPERATOR_ALERT_URL: 'ftp://alerts.example', OPERATOR_ALERT_SECRET: secret }).message)).toEqual([
        'OPERATOR_ALERT_URL',
      ]);
    });

    it('refuses an alert URL without its secret', () => {
      expect(namedVariables(errorOf({ OPERATOR_ALERT_URL: 'https://alerts.example/lvs' }).message)).toEqual(['OPERATOR_ALERT_SECRET']);
    });
  });

  describe('traces', () => {
    it('reads the collector endpoint', () => {
      expect(validateEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://collector:4318');
    });

    it('refuses an endpoint that is not http(s)', () => {
      expect(namedVariables(errorOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }).message)).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
      expect(namedVariables(errorOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }).message)).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    });

    it('reads the share of traces begun, from 0 to 1', () => {
      expect(validateEnvironment({ TRACE_SAMPLE_RATIO: '0.05' }).TRACE_SAMPLE_RATIO).toBe(0.05);
      expect(validateEnvironment({ TRACE_SAMPLE_RATIO: '0' }).TRACE_SAMPLE_RATIO).toBe(0);
      for (const ratio of ['1.5', '-0.1', 'half']) expect(namedVariables(errorOf({ TRACE_SAMPLE_RATIO: ratio }).message)).toEqual(['TRACE_SAMPLE_RATIO']);
    });
  });

  describe('HTTP timeouts and CORS', () => {
    it('turns the timeouts into numbers', () => {
      const settings = validateEnvironment({
        REQUEST_HEADERS_TIMEOUT_MS: '2000',
        REQUEST_BODY_TIMEOUT_MS: '3000',
        KEEP_ALIVE_TIMEOUT_MS: '4000',
      });
      expect([settings.REQUEST_HEADERS_TIMEOUT_MS, settings.REQUEST_BODY_TIMEOUT_MS, settings.KEEP_ALIVE_TIMEOUT_MS]).toEqual([2000, 3000, 4000]);
    });

    it('accepts headers and body timeouts that are equal', () => {
      expect(validateEnvironment({ REQUEST_HEADERS_TIMEOUT_MS: '7000', REQUEST_BODY_TIMEOUT_MS: '7000' }).REQUEST_BODY_TIMEOUT_MS).toBe(7000);
    });

    it('rejects a headers timeout longer than the whole-request timeout, naming it', () => {
      const error = errorOf({ REQUEST_HEADERS_TIMEOUT_MS: '20000' });
      expect(namedVariables(error.message)).toEqual(['REQUEST_HEADERS_TIMEOUT_MS']);
    });

    it.each([
      ['REQUEST_BODY_TIMEOUT_MS', '300001'],
      ['REQUEST_HEADERS_TIMEOUT_MS', '999'],
      ['KEEP_ALIVE_TIMEOUT_MS', '600001'],
    ])('rejects %s=%s, naming only that variable', (name, value) => {
      expect(namedVariables(errorOf({ [name]: value }).message)).toEqual([name]);
    });

    it('splits CORS_ORIGINS at commas and trims each origin', () => {
      expect(validateEnvironment({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173 ,' }).CORS_ORIGINS).toEqual([
        'https://app.example.com',
        'http://localhost:5173',
      ]);
    });

    it('reads TRUST_PROXY as a list, `none` trusting no peer, and names the setting for a bad entry', () => {
      expect(validateEnvironment({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
      expect(validateEnvironment({ TRUST_PROXY: 'none' }).TRUST_PROXY).toEqual([]);
      expect(() => validateEnvironment({ TRUST_PROXY: 'true' })).toThrow(
        'Invalid configuration: TRUST_PROXY: TRUST_PROXY must be comma-separated addresses, CIDRs, loopback, linklocal or uniquelocal',
      );
    });

    it('counts an empty CORS_ORIGINS as unset: CORS off', () => {
      expect(validateEnvironment({ CORS_ORIGINS: '' }).CORS_ORIGINS).toEqual([]);
    });

    it.each(['*', 'app.example.com', 'https://app.example.com/path', 'ftp://example.com'])(
      'rejects the CORS origin %s with the exact message',
      (origin) => {
        expect(errorOf({ CORS_ORIGINS: `https://ok.example.com,${origin}` }).message).toBe(
          'Invalid configuration: CORS_ORIGINS: CORS_ORIGINS must be comma-separated http(s) origins',
        );
      },
    );
  });

  describe('invalid values', () => {
    it('rejects PORT=abc with the integer message', () => {
      expect(errorOf({ PORT: 'abc' }).message.includes('PORT must be an integer number')).toBe(true);
    });

    it.each([
      [{ PORT: '3000.5' }, 'PORT: PORT must be an integer number'],
      [{ PORT: '65536' }, 'PORT: PORT must not be greater than 65535'],
      [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY: WORKER_CONCURRENCY must not be less than 1'],
      [{ CACHE_TTL_FOUND_SECONDS: '0' }, 'CACHE_TTL_FOUND_SECONDS: CACHE_TTL_FOUND_SECONDS must not be less than 1'],
      [
        { WATCH_MAX_REGISTER_SHARE: 'half' },
        'WATCH_MAX_REGISTER_SHARE: WATCH_MAX_REGISTER_SHARE must be a number conforming to the specified constraints',
      ],
      [{ WATCH_MAX_REGISTER_SHARE: '0.001' }, 'WATCH_MAX_REGISTER_SHARE: WATCH_MAX_REGISTER_SHARE must not be less than 0.01'],
      [{ WATCH_MAX_ENTRIES_PER_USER: '0' }, 'WATCH_MAX_ENTRIES_PER_USER: WATCH_MAX_ENTRIES_PER_USER must not be less than 1'],
      [{ LOG_LEVEL: 'trace' }, 'LOG_LEVEL: LOG_LEVEL must be one of the following values: fatal, error, warn, log, debug, verbose'],
      [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT: LOG_FORMAT must be one of the following values: json, text'],
      [{ WEBHOOK_ALLOW_PRIVATE_URLS: '1' }, 'WEBHOOK_ALLOW_PRIVATE_URLS: WEBHOOK_ALLOW_PRIVATE_URLS must be a boolean value'],
      [{ CONSOLE_ENABLED: 'no' }, 'CONSOLE_ENABLED: CONSOLE_ENABLED must be a boolean value'],
      [
        { WEBHOOK_DNS_SERVERS: '127.0.0.1:5353,dns.example' },
        'WEBHOOK_DNS_SERVERS: WEBHOOK_DNS_SERVERS must be comma-separated IP addresses, each with an optional :port (IPv6 as [address]:port)',
      ],
      [{ REDIS_PREFIX: 'a b' }, 'REDIS_PREFIX: REDIS_PREFIX must be 1-64 letters, digits, _ or -, the first ones optionally a hash tag: {name}'],
      [{ REDIS_PREFIX: '{lvs' }, 'REDIS_PREFIX: REDIS_PREFIX must be 1-64 letters, digits, _ or -, the first ones optionally a hash tag: {name}'],
      [{ REDIS_CLUSTER_NODES: '127.0.0.1:7000' }, 'REDIS_PREFIX: REDIS_PREFIX must start with a hash tag such as {lvs} when REDIS_CLUSTER_NODES is set'],
      [{ REDIS_SENTINELS: 'sentinel' }, 'REDIS_SENTINELS: REDIS_SENTINELS must be host:port[,host:port...]'],
      [{ DATABASE_MIGRATION_URL: 'mysql://x/y' }, 'DATABASE_MIGRATION_URL: must start with postgres:// or postgresql://'],
      [{ DATABASE_PREPARED_STATEMENTS: 'no' }, 'DATABASE_PREPARED_STATEMENTS: DATABASE_PREPARED_STATEMENTS must be a boolean value'],
    ])('rejects %j with exactly one line: %s', (raw, line) => {
      expect(errorOf(raw).message).toBe(`Invalid configuration: ${line}`);
    });

    it('tells text that is not a number only that, not the bounds too', () => {
      expect(errorOf({ PORT: 'abc', WORKER_CONCURRENCY: '1e3' }).message).toBe(
        'Invalid configuration: PORT: PORT must be an integer number\nInvalid configuration: WORKER_CONCURRENCY: WORKER_CONCURRENCY must be an integer number',
      );
    });

    it('tells a headers timeout above its own bound only that bound, not the comparison too', () => {
      expect(errorOf({ REQUEST_HEADERS_TIMEOUT_MS: '400000' }).message).toBe(
        'Invalid configuration: REQUEST_HEADERS_TIMEOUT_MS: REQUEST_HEADERS_TIMEOUT_MS must not be greater than 300000',
      );
    });

    it('compares the headers timeout only with a body timeout that is a number', () => {
      expect(errorOf({ REQUEST_HEADERS_TIMEOUT_MS: '20000', REQUEST_BODY_TIMEOUT_MS: 'soon' }).message).toBe(
        'Invalid configuration: REQUEST_BODY_TIMEOUT_MS: REQUEST_BODY_TIMEOUT_MS must be an integer number',
      );
    });

    it('keeps a number with the largest value allowed where only a lower bound is set', () => {
      expect(validateEnvironment({ IDEMPOTENCY_TTL_SECONDS: '31536000' }).IDEMPOTENCY_TTL_SECONDS).toBe(31536000);
    });

    it('rejects MIGRATIONS_RUN=no with the exact boolean message', () => {
      expect(() => validateEnvironment({ MIGRATIONS_RUN: 'no' })).toThrow(
        new Error('Invalid configuration: MIGRATIONS_RUN: MIGRATIONS_RUN must be a boolean value'),
      );
    });

    it('rejects an unknown QUOTA_TIME_ZONE with the exact message', () => {
      expect(() => validateEnvironment({ QUOTA_TIME_ZONE: 'Mars/Base' })).toThrow(
        new Error('Invalid configuration: QUOTA_TIME_ZONE: QUOTA_TIME_ZONE must be a valid IANA time-zone'),
      );
    });

    it('rejects an http:// REDIS_URL with the exact message', () => {
      expect(() => validateEnvironment({ REDIS_URL: 'http://x' })).toThrow(
        new Error('Invalid configuration: REDIS_URL: REDIS_URL must be redis://host:port[/db] or rediss:// for TLS'),
      );
    });

    it('rejects a DATABASE_URL without a database name', () => {
      expect(() => validateEnvironment({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/' })).toThrow(
        new Error('Invalid configuration: DATABASE_URL: must end in a database name of letters, digits and _'),
      );
    });

    it.each([
      ['mysql://db/lvs', 'DATABASE_URL: must start with postgres:// or postgresql://'],
      ['not a url', 'DATABASE_URL: must be a URL: postgres://user[:password]@host[:port]/database[?options]'],
      ['postgres://app:%E0%A4%A@db/lvs', 'DATABASE_URL: has a badly percent-encoded user or password'],
      ['postgres://db/lvs-prod', 'DATABASE_URL: must end in a database name of letters, digits and _'],
    ])('rejects the DATABASE_URL %s with the exact message', (url, problem) => {
      expect(() => validateEnvironment({ DATABASE_URL: url })).toThrow(new Error(`Invalid configuration: ${problem}`));
    });

    it('rejects a REGISTER_URL with a path', () => {
      expect(() => validateEnvironment({ REGISTER_URL: 'https://example.com/search' })).toThrow(
        new Error('Invalid configuration: REGISTER_URL: REGISTER_URL must be an http(s) origin'),
      );
    });

    it('rejects a LOG_LEVEL outside the list, naming it', () => {
      expect(namedVariables(errorOf({ LOG_LEVEL: 'trace' }).message)).toEqual(['LOG_LEVEL']);
    });

    it('throws ONE error naming each of several bad variables', () => {
      const error = errorOf({ PORT: 'abc', QUOTA_TIME_ZONE: 'Mars/Base', REDIS_URL: 'http://x' });
      const lines = error.message.split('\n');
      expect(namedVariables(error.message).sort()).toEqual(['PORT', 'QUOTA_TIME_ZONE', 'REDIS_URL']);
      expect(lines.includes('Invalid configuration: QUOTA_TIME_ZONE: QUOTA_TIME_ZONE must be a valid IANA time-zone')).toBe(true);
      expect(lines.includes('Invalid configuration: REDIS_URL: REDIS_URL must be redis://host:port[/db] or rediss:// for TLS')).toBe(true);
      expect(lines.some((line) => line.startsWith('Invalid configuration: PORT: ') && line.includes('PORT must be an integer number'))).toBe(true);
    });

    it('does not echo a valid variable in the error about another one', () => {
      const error = errorOf({ PORT: 'abc', DATABASE_URL: 'postgres://app:secret@db:5432/lvs' });
      expect(namedVariables(error.message)).toEqual(['PORT']);
      expect(error.message.includes('secret')).toBe(false);
    });
  });
});
