import { Test, TestingModule } from '@nestjs/testing';
import { Clock } from '../../src/clock/clock';
import { validateEnvironment } from '../../src/config/env.schema';
import { WorkerModule } from '../../src/worker.module';

/**
 * The real WorkerModule (lookups, re-checks, deliveries) inside the test process, sharing the
 * test's clock: for behaviour that depends on the date, such as expiry warnings and new quota
 * periods, which a separate worker process could not be told. Start it after startTestApp.
 */
export async function startInProcessWorker(clock: Clock): Promise<TestingModule> {
  // The test app's settings (its database, Redis prefix, sandbox), which startTestApp put in the environment.
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule.forRoot(validateEnvironment(process.env))] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(['error']);
  await moduleRef.init();
  return moduleRef;
}
