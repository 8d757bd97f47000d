import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { describeApiProductionProblems } from './config/production-secrets';
import { readSettings } from './config/read-settings';
import { configureHttp, createFastifyAdapter, HTTP_APP_OPTIONS } from './http/configure-http';
import { installGracefulShutdown } from './http/graceful-shutdown';
import { createLogger } from './logging/create-logger';
import { warnIfNotProductionRegister } from './lookups/production-register-warning';
import { mountAdminDashboard } from './operator/admin-dashboard';
import { createOperatorApp, listenForOperators } from './operator/operator-listener';
import { startTracing } from './tracing/tracing';

/**
 * API process: HTTP on Fastify, Swagger at /docs; it only produces lookup jobs. With OPERATOR_PORT set, a
 * second listener serves the operators' routes, and the partner port no longer does.
 */
async function bootstrap(): Promise<void> {
  const settings = readSettings();
  const productionProblems = describeApiProductionProblems(settings);
  if (productionProblems.length > 0) throw new Error(productionProblems.map((problem) => `Invalid configuration: ${problem}`).join('\n'));
  process.title = 'lvs-api';
  const tracing = startTracing(settings.OTEL_EXPORTER_OTLP_ENDPOINT, process.title, settings.TRACE_SAMPLE_RATIO);
  const logger = createLogger(settings, 'api', undefined, tracing?.logFields);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(settings), createFastifyAdapter(settings), {
    logger,
    ...HTTP_APP_OPTIONS,
  });
  const operators = settings.OPERATOR_PORT === null ? undefined : await createOperatorApp(app, settings, logger);
  await configureHttp(app, logger);
  await mountAdminDashboard(operators ?? app, app, settings.ADMIN_TOKEN, settings.ADMIN_DASHBOARD_WRITE);
  installGracefulShutdown(app, settings.SHUTDOWN_GRACE_MS, operators);
  warnIfNotProductionRegister(settings.REGISTER_URL, logger);
  if (operators) await listenForOperators(operators, settings, logger);
  await app.listen(settings.PORT, settings.HOST);
  const { port } = app.getHttpServer().address() as { port: number };
  logger.log(`API listening on ${settings.HOST}:${port} (Swagger UI at /docs)`, 'Main');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
