import { Test, TestingModule } from '@nestjs/testing';
import { Clock } from '../../src/clock/clock';

/**
 * The real WorkerModule (lookups, re-checks, deliveries) inside the test process, sharing the
 * test's clock: for behaviour that depends on the date, such as expiry warnings and new quota
 * periods, which a separate worker process could not be told. Start it after startTestApp.
 */
export async function startInProcessWorker(clock: Clock): Promise<TestingModule> {
  // Required only now, like AppModule in startTestApp: the settings are read when the config
  // module and the processors are first loaded, and must be the test app's (its database, Redis
  // prefix, sandbox).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { WorkerModule } = require('../../src/worker.module') as typeof import('../../src/worker.module');
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(['error']);
  await moduleRef.init();
  return moduleRef;
}
