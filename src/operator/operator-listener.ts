import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppSettings, operatorsHost } from '../config/env.schema';
import { createFastifyAdapter, HTTP_APP_OPTIONS, registerRequestReading } from '../http/configure-http';
import { registerSecurityHeaders } from '../http/security-headers';
import { AppLogger } from '../logging/create-logger';
import { OperatorAppModule } from './operator-app.module';

/**
 * The operators' listener on OPERATOR_PORT (at OPERATOR_HOST, else HOST): a second Fastify server in the
 * API process, with its own small Nest application sharing the partner app's instances. The caller mounts
 * the queue dashboard on it and installs the graceful shutdown before it listens.
 */
export async function createOperatorApp(partner: NestFastifyApplication, settings: AppSettings, logger: AppLogger): Promise<NestFastifyApplication> {
  const operator = await NestFactory.create<NestFastifyApplication>(OperatorAppModule.sharing(partner), createFastifyAdapter(settings), {
    logger,
    ...HTTP_APP_OPTIONS,
  });
  registerRequestReading(operator);
  registerSecurityHeaders(operator.getHttpAdapter().getInstance());
  return operator;
}

/** Starts the operators' listener and logs the address it took (OPERATOR_PORT may be 0). */
export async function listenForOperators(operator: NestFastifyApplication, settings: AppSettings, logger: AppLogger): Promise<void> {
  const host = operatorsHost(settings);
  await operator.listen(settings.OPERATOR_PORT!, host);
  const { port } = operator.getHttpServer().address() as { port: number };
  logger.log(`Operators' listener (/operator console, /metrics, /health/*, queue dashboard) on ${host}:${port}`, 'Main');
}
