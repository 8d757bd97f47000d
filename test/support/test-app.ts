import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import Redis from 'ioredis';
import { Client } from 'pg';
import { AppModule } from '../../src/app.module';
import { ApiKeysService, CreatedKey } from '../../src/auth/api-keys.service';
import { Clock } from '../../src/clock/clock';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/env.schema';
import { configureHttp, createFastifyAdapter, HTTP_APP_OPTIONS } from '../../src/http/configure-http';
import { createLogger } from '../../src/logging/create-logger';
import { loadServedDocument } from './http';
import { MutableClock } from './mutable-clock';
import { primaryAddressOf } from './private-redis-cluster';
import { cloneRunDatabase, serviceTestEnv } from './service-test-env';
import { databaseUrl, TEST_REDIS_URL, testTopology } from './test-run';
import { WorkerProcess } from './worker-process';

export interface TestAppOptions {
  /** settings for both processes, on top of the test defaults */
  env?: Record<string, string>;
  /** start a worker process too (the verification flow needs one) */
  withWorker?: boolean;
}

export interface TestApp {
  baseUrl: string;
  app: NestFastifyApplication;
  clock: MutableClock;
  sandbox: RunningSandbox;
  /** the test's own database */
  db: Client;
  /** the test's Redis client; on a cluster, a plain one to the primary serving the prefix's hash tag */
  redis: Redis;
  redisPrefix: string;
  env: Record<string, string>;
  /** the API's log lines (JSON), kept instead of printed: errors provoked on purpose stay quiet */
  logLines: string[];
  /** every worker started, in order */
  workers: WorkerProcess[];
  /** starts one more worker process, with `overrides` on top of the app's settings; all of them stop with close() */
  startWorker(overrides?: Record<string, string>): Promise<WorkerProcess>;
  /** a live key (a new user unless userId), or with `test` a test key of the user's test side (a new live user's unless userId) */
  createKey(options?: { quota?: number | null; expiresAt?: Date | null; userId?: string; name?: string; test?: boolean }): Promise<CreatedKey>;
  close(): Promise<void>;
}

/**
 * Boots the real AppModule on Fastify against a database cloned from the run's migrated template,
 * Redis under a fresh prefix, and the sandbox register on a random port; optionally the real worker.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const name = await cloneRunDatabase();
  const sandbox = await startSandbox({ port: 0 });
  const topology = testTopology();
  // On a cluster every key of the test lives in its prefix's hash tag's slot.
  const redisPrefix = topology.redisClusterNodes ? `{${name}}` : name;
  const env: Record<string, string> = { ...serviceTestEnv(name, redisPrefix, sandbox.url), ...options.env };
  // The in-process app shares its event loop with Jest and the spec's own work (module loading, child processes
  // waited on), which on a busy 2-core machine can stall it for longer than the service's 800 ms deadlines: they
  // would then time the test runner, not the service. It gets longer ones unless the spec sets its own; processes
  // started from `env` (API, worker) keep the defaults.
  const inProcessEnv = { DEPENDENCY_TIMEOUT_MS: '5000', DATABASE_CHARGE_TIMEOUT_MS: '5000', ...env };
  Object.assign(process.env, inProcessEnv);

  const settings = validateEnvironment(inProcessEnv);
  const clock = new MutableClock();
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(settings)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const logLines: string[] = [];
  const logger = createLogger(settings, 'api', { write: (line: string) => void logLines.push(line) });
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(settings), {
    logger,
    ...HTTP_APP_OPTIONS,
  });
  await configureHttp(app, logger);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  await loadServedDocument(baseUrl);

  const db = new Client({ connectionString: databaseUrl(name) });
  // The run's teardown drops the database of a file whose afterAll did not finish, which ends this connection: an
  // unheard 'error' event would then kill Jest, and leave the file's API and worker processes running.
  db.on('error', () => undefined);
  await db.connect();
  const redis = topology.redisClusterNodes
    ? await primaryAddressOf(topology.redisClusterNodes, redisPrefix).then(({ host, port }) => new Redis(port, host))
    : new Redis(TEST_REDIS_URL);

  const workers: WorkerProcess[] = [];
  const testApp: TestApp = {
    baseUrl,
    app,
    clock,
    sandbox,
    db,
    redis,
    redisPrefix,
    env,
    logLines,
    workers,
    async startWorker(overrides = {}) {
      const worker = await WorkerProcess.start({ ...env, LOG_LEVEL: 'log', ...overrides }); // its output is kept, not printed
      workers.push(worker);
      return worker;
    },
    createKey: (keyOptions = {}) =>
      app.get(ApiKeysService).createKey({
        name: keyOptions.name ?? 'test',
        quota: keyOptions.quota ?? null,
        expiresAt: keyOptions.expiresAt ?? null,
        userId: keyOptions.userId,
        testModeQuota: keyOptions.test ? app.get(AppConfig).get('TEST_MODE_QUOTA') : undefined,
      }),
    async close() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await app.close();
      await sandbox.close();
      await db.end();
      redis.disconnect();
    },
  };
  if (options.withWorker) await testApp.startWorker();
  return testApp;
}
