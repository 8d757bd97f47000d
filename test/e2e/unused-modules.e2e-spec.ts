import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '../..');
const run = promisify(execFile);

interface Loaded {
  otherDatabaseFiles: number;
  bullmqBackendFiles: number;
  postgresDriver: string;
  mysqlDataSource: string;
  queue: string;
}

/**
 * Loads TypeORM and BullMQ in a fresh Node process, as the entry points do, with or without the compiled
 * skip-unused-modules first, and reports what was loaded and what still works.
 */
async function loadDependencies(skipping: boolean): Promise<Loaded> {
  const script = `
    ${skipping ? "require('./dist/src/runtime/skip-unused-modules');" : ''}
    const { DataSource } = require('typeorm');
    const { Queue } = require('bullmq');
    const files = Object.keys(require.cache);
    let mysqlDataSource;
    try { new DataSource({ type: 'mysql' }); mysqlDataSource = 'created'; } catch (error) { mysqlDataSource = error.message; }
    console.log(JSON.stringify({
      otherDatabaseFiles: files.filter((file) => /typeorm\\/driver\\/(?!postgres\\/|types\\/)[\\w-]+\\//.test(file) && !/MssqlParameter/.test(file)).length,
      bullmqBackendFiles: files.filter((file) => /bullmq\\/dist\\/cjs\\/(postgres\\/|classes\\/(node-redis|bun-redis|valkey-glide)-client)/.test(file)).length,
      postgresDriver: new DataSource({ type: 'postgres' }).driver.constructor.name,
      mysqlDataSource,
      queue: typeof Queue,
    }));`;
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: ROOT });
  return JSON.parse(stdout) as Loaded;
}

describe('modules the processes never run', () => {
  it('are not loaded by the compiled entry setup, while PostgreSQL and BullMQ queues work', async () => {
    const loaded = await loadDependencies(true);
    expect(loaded).toEqual({
      otherDatabaseFiles: 0,
      bullmqBackendFiles: 0,
      postgresDriver: 'PostgresDriver',
      mysqlDataSource: expect.stringMatching(/typeorm\/driver\/mysql\/MysqlDriver\.js is not loaded: this service uses PostgreSQL and ioredis only$/),
      queue: 'function',
    });
  });

  it('would be loaded without it: TypeORM requires every driver and BullMQ every backend', async () => {
    const loaded = await loadDependencies(false);
    expect(loaded.otherDatabaseFiles).toBeGreaterThan(30);
    expect(loaded.bullmqBackendFiles).toBeGreaterThan(3);
    expect([loaded.postgresDriver, loaded.queue]).toEqual(['PostgresDriver', 'function']);
  });
});
