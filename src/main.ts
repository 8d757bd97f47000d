import './runtime/limit-heap-growth';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { readSettings } from './config/read-settings';
import { configureHttp, createFastifyAdapter } from './http/configure-http';
import { createLogger } from './logging/create-logger';

/** API process: HTTP on Fastify, Swagger at /docs; it only produces lookup jobs. */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  process.title = 'lvs-api';
  const logger = createLogger(settings, 'api');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(), { logger });
  configureHttp(app);
  await app.listen(settings.PORT, settings.HOST);
  logger.log(`API listening on ${await app.getUrl()} (docs at /docs)`);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
