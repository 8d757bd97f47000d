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
