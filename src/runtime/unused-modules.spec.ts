import { isUnusedModule, unusedModuleStandIn } from './unused-modules';

const resolved = (request: string) => require.resolve(request);

describe('isUnusedModule', () => {
  it.each([
    'typeorm/driver/mysql/MysqlDriver.js',
    'typeorm/driver/sqlserver/SqlServerDriver.js',
    'typeorm/driver/oracle/OracleDriver.js',
    'typeorm/driver/cockroachdb/CockroachDriver.js',
    'typeorm/driver/aurora-postgres/AuroraPostgresDriver.js',
    'typeorm/driver/mongodb/MongoDriver.js',
    'typeorm/entity-manager/MongoEntityManager.js',
    'typeorm/entity-manager/SqljsEntityManager.js',
    'typeorm/repository/MongoRepository.js',
  ])('skips %s, which TypeORM requires for other databases', (file) => {
    expect(isUnusedModule(resolved(file))).toBe(true);
  });

  it.each([
    'typeorm/driver/postgres/PostgresDriver.js',
    'typeorm/driver/postgres/PostgresQueryRunner.js',
    'typeorm/driver/DriverFactory.js',
    'typeorm/driver/sqlserver/MssqlParameter.js',
    'typeorm/entity-manager/EntityManager.js',
    'typeorm/repository/Repository.js',
  ])('loads %s', (file) => {
    expect(isUnusedModule(resolved(file))).toBe(false);
  });

  it('skips BullMQ PostgreSQL backend and the Redis clients other than ioredis, and loads the rest', () => {
    const bullmq = resolved('bullmq').replace(/index\.js$/, '');
    const skipped = ['postgres/index.js', 'classes/node-redis-client.js', 'classes/bun-redis-client.js', 'classes/valkey-glide-client.js'];
    const loaded = ['index.js', 'classes/index.js', 'classes/ioredis-client.js', 'classes/redis-connection.js', 'classes/worker.js', 'classes/queue.js'];
    expect([...skipped, ...loaded].map((file) => isUnusedModule(`${bullmq}${file}`))).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });

  it('looks only inside node_modules: our own files of the same names load', () => {
    expect(isUnusedModule('/srv/app/dist/src/driver/mysql/MysqlDriver.js')).toBe(false);
  });
});

describe('unusedModuleStandIn', () => {
  const standIn = unusedModuleStandIn('/app/node_modules/typeorm/driver/mysql/MysqlDriver.js') as Record<string | symbol, unknown>;

  it('names the module when an export is constructed or called', () => {
    const MysqlDriver = standIn.MysqlDriver as new () => unknown;
    expect(() => new MysqlDriver()).toThrow(
      new Error('/app/node_modules/typeorm/driver/mysql/MysqlDriver.js is not loaded: this service uses PostgreSQL and ioredis only'),
    );
    expect(() => (standIn.createNodeRedisClient as () => unknown)()).toThrow('is not loaded');
  });

  it('is no class of anything', () => {
    expect({} instanceof (standIn.MysqlDriver as new () => unknown)).toBe(false);
  });

  it('reads as a compiled ES module and not as a promise', () => {
    expect([standIn.__esModule, standIn.then, standIn[Symbol.toStringTag]]).toEqual([true, undefined, undefined]);
  });
});
