import { DataSource } from 'typeorm';
import { readSettings } from '../config/read-settings';
import { buildDataSourceOptions, ensureDatabaseExists, runMigrationsExclusively } from './data-source';

/** `npm run migration:run`: creates the database if needed and applies pending migrations. */
async function main(): Promise<void> {
  const { DATABASE_URL } = readSettings();
  await ensureDatabaseExists(DATABASE_URL);
  const dataSource = await new DataSource(buildDataSourceOptions(DATABASE_URL)).initialize();
  try {
    const applied = await runMigrationsExclusively(dataSource);
    console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
