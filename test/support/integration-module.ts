import type { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ClockModule } from '../../src/clock/clock.module';
import { AppConfigModule } from '../../src/config/app-config.module';
import { validateEnvironment } from '../../src/config/env.schema';
import { DatabaseModule } from '../../src/database/database.module';
import { MetricsModule } from '../../src/metrics/metrics.module';
import { RedisModule } from '../../src/redis/redis.module';
import { TracingModule } from '../../src/tracing/tracing.module';
import { SandboxAdmin } from './sandbox-admin';
import { cloneRunDatabase, serviceTestEnv } from './service-test-env';
import { databaseUrl, TEST_REDIS_URL } from './test-run';

type ModuleEntry = Type | DynamicModule | ForwardReference;

export interface IntegrationModule {
  /** the compiled and initialised testing module: get() any provider of the features under test */
  moduleRef: TestingModule;
  /** the sandbox register (a real HTTP server on a random port), and its admin API */
  register: RunningSandbox;
  sandbox: SandboxAdmin;
  /** the spec file's own database, and Redis under its own prefix */
  db: Client;
  redis: Redis;
  redisPrefix: string;
  close(): Promise<void>;
}

/**
 * The middle tier (docs/testing.md): the features' real modules in a Nest testing module, on the infrastructure a
 * process has (settings, clock, PostgreSQL, Redis, metrics, tracing), against the file's own database cloned from the
 * run's template, Redis under the file's own prefix and the sandbox register. No HTTP listener and no child process:
 * a spec calls the services, and the module's queue workers run in the spec's own process.
 */
export async function startIntegrationModule(features: ModuleEntry[], env: Record<string, string> = {}): Promise<IntegrationModule> {
  const name = await cloneRunDatabase();
  const register = await startSandbox({ port: 0 });
  const settings = validateEnvironment({
    ...serviceTestEnv(name, name, register.url),
    // The module shares its event loop with Jest: the deadlines of an in-process app (test-app.ts).
    DEPENDENCY_TIMEOUT_MS: '5000',
    DATABASE_CHARGE_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'error',
    ...env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppConfigModule.forRoot(settings), ClockModule, TracingModule, DatabaseModule, RedisModule, MetricsModule, ...features],
  }).compile();
  moduleRef.useLogger(['error']);
  await moduleRef.init();
  const db = new Client({ connectionString: databaseUrl(name) });
  // The run's teardown drops the database of a file whose afterAll did not finish, which ends this connection: an
  // unheard 'error' event would then kill Jest, and leave the file's API and worker processes running.
  db.on('error', () => undefined);
  await db.connect();
  const redis = new Redis(TEST_REDIS_URL);
  return {
    moduleRef,
    register,
    sandbox: new SandboxAdmin(register.url),
    db,
    redis,
    redisPrefix: name,
    async close() {
      await moduleRef.close();
      await register.close();
      await db.end();
      redis.disconnect();
    },
  };
}
