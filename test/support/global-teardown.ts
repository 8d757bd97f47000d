import type { Config } from '@jest/types';
import Redis from 'ioredis';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { openApiRunDirectory, unseenStatuses } from './openapi-contract';
import { deleteKeysWithPrefix } from './redis-keys';
import { POSTGRES_ADMIN_URL, TEST_REDIS_URL, testRunId } from './test-run';

/** The interface's operations: a full run must produce every status the document gives them. */
const INTERFACE_OPERATIONS = ['POST /v1/licences/verify', 'GET /v1/quota/usage'];

/** Drops every database and Redis key the run created, then checks the run covered the document. */
export default async function globalTeardown(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): Promise<void> {
  const runId = testRunId();
  const postgres = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await postgres.connect();
  try {
    const { rows } = await postgres.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${runId}%`]);
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
  // Only the e2e project talks to the operations through the checking HTTP helper; the resilience
  // project speaks raw TCP.
  if (projectConfig.displayName?.name === 'e2e') checkDocumentedStatusesSeen(globalConfig);
}

/** Fails the run when some documented status of the interface's operations was never checked by a test. */
function checkDocumentedStatusesSeen(globalConfig: Config.GlobalConfig): void {
  const unseen = unseenStatuses(INTERFACE_OPERATIONS);
  rmSync(openApiRunDirectory(), { recursive: true, force: true });
  // A run of some files or tests only cannot see everything; only the whole suite is held to it.
  const partial = globalConfig.testPathPatterns.isSet() || Boolean(globalConfig.testNamePattern) || globalConfig.onlyChanged;
  if (partial) return;
  if (unseen === null || unseen.length > 0) {
    throw new Error(
      'No e2e test produced these documented answers, so none was checked against the OpenAPI document: ' +
        (unseen === null ? 'no answer at all' : unseen.join(', ')),
    );
  }
}
