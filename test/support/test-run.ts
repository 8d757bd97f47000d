/**
 * Names shared by one test run: its databases and Redis key prefixes all start with the run id,
 * so concurrent runs never meet and teardown removes exactly what the run made.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testRunId(): string {
  const id = process.env.LVS_TEST_RUN;
  if (!id) throw new Error('LVS_TEST_RUN is not set: run e2e tests through jest (global setup)');
  return id;
}

export function templateDatabaseName(runId: string): string {
  return `${runId}_template`;
}

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Where the e2e-topologies project (jest.config.js) sends the service instead of the machine's servers: a Redis
 * Cluster and a PgBouncer that its global setup started. Unset in the other projects.
 */
export interface TestTopology {
  /** REDIS_CLUSTER_NODES of the private cluster */
  redisClusterNodes?: string;
  /** port of the private PgBouncer, in front of the PostgreSQL of POSTGRES_ADMIN_URL */
  pgbouncerPort?: number;
}

export function testTopology(): TestTopology {
  const port = process.env.LVS_TEST_PGBOUNCER_PORT;
  return {
    redisClusterNodes: process.env.LVS_TEST_REDIS_CLUSTER_NODES || undefined,
    pgbouncerPort: port ? Number(port) : undefined,
  };
}
