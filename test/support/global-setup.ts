import { DataSource } from 'typeorm';
import { buildDataSourceOptions, ensureDatabaseExists, runMigrationsExclusively } from '../../src/database/data-source';
import { databaseUrl, templateDatabaseName } from './test-run';

/** Migrates one template database per run; each e2e file clones it (fast, and isolated). */
export default async function globalSetup(): Promise<void> {
  const runId = `lvs_test_${Date.now().toString(36)}_${process.pid}`;
  process.env.LVS_TEST_RUN = runId;
  const url = databaseUrl(templateDatabaseName(runId));
  await ensureDatabaseExists(url);
  const dataSource = await new DataSource(buildDataSourceOptions(url)).initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
