import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { readSettings } from './config/read-settings';
import { WorkerHeartbeat } from './health/worker-heartbeat';
import { createLogger } from './logging/create-logger';
import { LookupProcessor, TestLookupProcessor } from './lookups/lookup.processor';
import { WorkerModule } from './worker.module';

/** Worker process: runs register lookups until SIGTERM, then finishes the active ones. */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  process.title = 'lvs-worker';
  const logger = createLogger(settings, 'worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(settings), { logger });
  await app.init();
  logger.log(`Worker running: concurrency ${settings.WORKER_CONCURRENCY}, ${settings.REGISTER_MAX_PER_SECOND} lookups/s`, 'Main');

  // Nest's shutdown hooks would close the register client while BullMQ still hands out jobs, failing
  // the waiting ones. Order here: stop taking jobs, finish the active ones within the grace, then close.
  // Jobs still waiting stay in the queue for the next worker.
  let stopping = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const graceMs = settings.SHUTDOWN_GRACE_MS;
    const started = Date.now();
    setTimeout(() => process.exit(1), graceMs + 5000).unref(); // whatever hangs, the process goes
    const workers = [app.get(LookupProcessor).worker, app.get(TestLookupProcessor).worker];
    logger.log(`${signal}: no longer taking jobs; finishing active lookups within ${graceMs} ms`, 'Shutdown');
    await app
      .get(WorkerHeartbeat)
      .stop()
      .catch(() => undefined);
    const finished = await Promise.race([Promise.all(workers.map((worker) => worker.close())).then(() => true), sleep(graceMs, false, { ref: false })]);
    if (finished) {
      logger.log(`Active lookups finished in ${Date.now() - started} ms`, 'Shutdown');
    } else {
      logger.warn(`Grace of ${graceMs} ms is over: lookups still active go to another worker after their lock expires`, 'Shutdown');
      await Promise.all(workers.map((worker) => worker.close(true)));
    }
    await app.close();
    logger.log(`Stopped in ${Date.now() - started} ms`, 'Shutdown');
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, (name) => void shutDown(name));
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
