import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { readSettings } from './config/read-settings';
import { mountAdminDashboard } from './http/admin-dashboard';
import { configureHttp, createFastifyAdapter, HTTP_APP_OPTIONS } from './http/configure-http';
import { installGracefulShutdown } from './http/graceful-shutdown';
import { createLogger } from './logging/create-logger';
import { warnIfNotProductionRegister } from './lookups/production-register-warning';

/** API process: HTTP on Fastify, Swagger at /docs; it only produces lookup jobs. */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  process.title = 'lvs-api';
  const logger = createLogger(settings, 'api');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(settings), {
    logger,
    ...HTTP_APP_OPTIONS,
  });
  await configureHttp(app, logger);
  await mountAdminDashboard(app, settings.ADMIN_TOKEN);
  installGracefulShutdown(app, settings.SHUTDOWN_GRACE_MS);
  warnIfNotProductionRegister(settings.REGISTER_URL, logger);
  await app.listen(settings.PORT, settings.HOST);
  const { port } = app.getHttpServer().address() as { port: number };
  logger.log(`API listening on ${settings.HOST}:${port} (Swagger UI at /docs)`, 'Main');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
