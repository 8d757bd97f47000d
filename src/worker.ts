import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readSettings } from './config/read-settings';
import { createLogger } from './logging/create-logger';
import { startTracing } from './tracing/tracing';
import { WorkerModule } from './worker.module';

/** Worker process: runs register lookups until SIGTERM, then finishes the active ones. */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  process.title = 'lvs-worker';
  const tracing = startTracing(settings.OTEL_EXPORTER_OTLP_ENDPOINT, process.title, settings.TRACE_SAMPLE_RATIO);
  const logger = createLogger(settings, 'worker', undefined, tracing?.logFields);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(settings), { logger });
  await app.init();
  logger.log(`Worker running: concurrency ${settings.WORKER_CONCURRENCY}, ${settings.REGISTER_MAX_PER_SECOND} lookups/s`, 'Main');

  // Nest's lifecycle orders the shutdown: every worker stops taking jobs and the heartbeat goes (onModuleDestroy), the
  // active jobs finish within the grace (beforeApplicationShutdown), then clients and pools close
  // (onApplicationShutdown). Jobs still waiting stay in the queue for the next worker. process.exit after it lets
  // pino flush; whatever hangs, the process goes shortly after the grace.
  const graceMs = settings.SHUTDOWN_GRACE_MS;
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, (name) => {
      logger.log(`${name}: no longer taking jobs; finishing the active ones within ${graceMs} ms`, 'Shutdown');
      setTimeout(() => process.exit(1), graceMs + 5000).unref();
    });
  }
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
