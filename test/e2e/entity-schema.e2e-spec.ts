import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The migrations are the schema; the entities the modules register with TypeORM (forFeature, loaded by the API's
 * DataSource) must describe it exactly, or they are a second, unchecked schema. The test app's database is a copy of
 * the run's freshly migrated template; TypeORM's schema builder, asked what it would change there, must find nothing.
 */
describe('TypeORM entities against the migrated schema', () => {
  let testApp: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    testApp = await startTestApp();
    dataSource = testApp.app.get(DataSource);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('knows the entities it checks', () => {
    expect(dataSource.entityMetadatas.map((entity) => entity.tableName).sort()).toEqual(['api_keys', 'quota_usage', 'users']);
  });

  it('finds nothing to change in a freshly migrated database', async () => {
    const changes = await dataSource.driver.createSchemaBuilder().log();
    expect(changes.upQueries.map((query) => query.query)).toEqual([]);
  });
});
