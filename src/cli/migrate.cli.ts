import { readSettings } from '../config/read-settings';
import { migrateDatabase } from '../database/data-source';

/** `npm run migration:run`: creates the database if needed and applies pending migrations (on DATABASE_MIGRATION_URL if set). */
async function main(): Promise<void> {
  const { DATABASE_URL, DATABASE_MIGRATION_URL } = readSettings();
  const applied = await migrateDatabase(DATABASE_MIGRATION_URL || DATABASE_URL);
  console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
