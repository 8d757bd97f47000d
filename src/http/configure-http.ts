import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppLogger } from '../logging/create-logger';
import { Metrics } from '../metrics/metrics';
import { registerHttpMetrics } from '../metrics/http-metrics';
import { chooseRequestId } from '../logging/request-id';
import { registerRequestLogging } from '../logging/request-logging';
import { decodeRequestBody } from './decode-request-body';
import { mountOpenApi } from './openapi';

// Fastify's own ceiling on what it reads; the 16 KiB contract limit is checked after authentication.
const READ_LIMIT_BYTES = 1024 * 1024;

/** Fastify-specific setup, shared by main.ts and the e2e tests. */
export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: READ_LIMIT_BYTES,
    trustProxy: true,
    genReqId: (request: IncomingMessage) => chooseRequestId(request.headers['x-request-id'], randomUUID),
    // Idle keep-alive sockets close at once on shutdown; requests still arriving on busy ones get our
    // own 503 body from the shutdown hook instead of Fastify's.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
  });
}

export function configureHttp(app: NestFastifyApplication, logger: AppLogger): void {
  const fastify = app.getHttpAdapter().getInstance();
  registerRequestLogging(fastify, logger.pino);
  registerHttpMetrics(fastify, app.get(Metrics));
  // Fastify's built-in JSON and text parsers throw before guards run; ours defers every problem.
  fastify.removeAllContentTypeParsers();
  app.useBodyParser('*', { bodyLimit: READ_LIMIT_BYTES }, async (request: FastifyRequest, body: Buffer) =>
    decodeRequestBody(request.headers['content-type'], body),
  );
  mountOpenApi(app);
}
