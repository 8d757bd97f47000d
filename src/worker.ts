import './runtime/limit-heap-growth';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readSettings } from './config/read-settings';
import { createLogger } from './logging/create-logger';
import { WorkerModule } from './worker.module';

/** Worker process: no HTTP server; runs register lookups until SIGTERM, then finishes the active ones. */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  process.title = 'lvs-worker';
  const logger = createLogger(settings, 'worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.register(settings), { logger });
  app.enableShutdownHooks();
  await app.init();
  logger.log(`Worker running: concurrency ${settings.WORKER_CONCURRENCY}, ${settings.REGISTER_MAX_PER_SECOND} lookups/s`);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
