import { migrateDatabase } from '../../src/database/data-source';
import { databaseUrl, templateDatabaseName } from './test-run';

/** Migrates one template database per run; each e2e file clones it (fast, and isolated). */
export default async function globalSetup(): Promise<void> {
  const runId = `lvs_test_${Date.now().toString(36)}_${process.pid}`;
  process.env.LVS_TEST_RUN = runId;
  await migrateDatabase(databaseUrl(templateDatabaseName(runId)));
}
