import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl, POSTGRES_ADMIN_URL, TEST_REDIS_URL, templateDatabaseName, testRunId, testTopology } from './test-run';

/**
 * A database of the spec file's own, cloned from the run's migrated template (global-setup.ts): fast, and isolated.
 * Its name starts with the run id, so the run's teardown drops it, and serves as the file's Redis prefix too.
 */
export async function cloneRunDatabase(): Promise<string> {
  const runId = testRunId();
  // Random, not counted: Jest gives every spec file its own module registry, so a counter restarts.
  const name = `${runId}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabaseName(runId)}"`);
  await admin.end();
  return name;
}

/** The settings a spec's service runs with (e2e and integration alike): its database, its prefix, the sandbox register. */
export function serviceTestEnv(databaseName: string, redisPrefix: string, registerUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl(databaseName),
    MIGRATIONS_RUN: 'false',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    ...topologySettings(databaseName),
    REGISTER_URL: registerUrl,
    REGISTER_REQUEST_TIMEOUT_MS: '1500',
    REGISTER_MAX_PER_SECOND: '200',
    LOOKUP_BACKOFF_MS: '50',
    // Specs provoke register failures one after another; the breaker has its own resilience scenario.
    REGISTER_BREAKER_FAILURES: '1000',
    // Specs fire hundreds of requests at once (quota exactness) and many bad keys; rate-limit.e2e-spec sets its own limits.
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
    VERIFY_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'log',
    LOG_FORMAT: 'json',
    WORKER_HTTP_PORT: '0',
  };
}

/**
 * Under the e2e-topologies project: the service on the private Redis Cluster, and on PgBouncer 1.18 in
 * transaction mode (so without named statements, and migrations on the direct connection).
 */
function topologySettings(databaseName: string): Record<string, string> {
  const { redisClusterNodes, pgbouncerPort } = testTopology();
  const settings: Record<string, string> = {};
  if (redisClusterNodes) settings.REDIS_CLUSTER_NODES = redisClusterNodes;
  if (pgbouncerPort) {
    const pooled = new URL(databaseUrl(databaseName));
    pooled.hostname = '127.0.0.1';
    pooled.port = String(pgbouncerPort);
    Object.assign(settings, {
      DATABASE_URL: pooled.toString(),
      DATABASE_MIGRATION_URL: databaseUrl(databaseName),
      DATABASE_PREPARED_STATEMENTS: 'false',
    });
  }
  return settings;
}
