import { DataSource } from 'typeorm';
import { buildDataSourceOptions, migrateDatabase } from '../../src/database/data-source';
import { databaseUrl, testRunId } from '../support/test-run';

/**
 * The migrations are the schema; the entities TypeORM is given must describe it exactly, or they are a second,
 * unchecked schema. TypeORM's schema builder, asked what it would change, must find nothing.
 */
describe('TypeORM entities against the migrated schema', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const url = databaseUrl(`${testRunId()}_entities`);
    await migrateDatabase(url);
    dataSource = await new DataSource(buildDataSourceOptions(url)).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('knows the entities it checks', () => {
    expect(dataSource.entityMetadatas.map((entity) => entity.tableName).sort()).toEqual(['api_keys', 'quota_usage', 'users']);
  });

  it('finds nothing to change in a freshly migrated database', async () => {
    const changes = await dataSource.driver.createSchemaBuilder().log();
    expect(changes.upQueries.map((query) => query.query)).toEqual([]);
  });
});
