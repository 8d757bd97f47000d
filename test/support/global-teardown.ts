import Redis from 'ioredis';
import { Client } from 'pg';
import { deleteKeysWithPrefix } from './redis-keys';
import { POSTGRES_ADMIN_URL, TEST_REDIS_URL, testRunId } from './test-run';

/** Drops every database and Redis key the run created. */
export default async function globalTeardown(): Promise<void> {
  const runId = testRunId();
  const postgres = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await postgres.connect();
  try {
    const { rows } = await postgres.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${runId}%`],
    );
    for (const { datname } of rows) await postgres.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await postgres.end();
  }
  const redis = new Redis(TEST_REDIS_URL);
  try {
    await deleteKeysWithPrefix(redis, runId);
  } finally {
    redis.disconnect();
  }
}
