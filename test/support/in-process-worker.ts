import { Test, TestingModule } from '@nestjs/testing';
import { Clock } from '../../src/clock/clock';
import { readSettings } from '../../src/config/read-settings';
import { WorkerModule } from '../../src/worker.module';

/**
 * The real WorkerModule (lookups, re-checks, deliveries) inside the test process, sharing the
 * test's clock: for behaviour that depends on the date, such as expiry warnings and new quota
 * periods, which a separate worker process could not be told.
 */
export async function startInProcessWorker(clock: Clock): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule.register(readSettings())] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(['error']);
  await moduleRef.init();
  return moduleRef;
}
