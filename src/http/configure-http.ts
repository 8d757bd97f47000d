import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { BodyPolicy, decodeRequestBody } from './decode-request-body';
import { mountOpenApi } from './openapi';

// Fastify's own ceiling on what it reads; the 16 KiB contract limit is checked after authentication.
const READ_LIMIT_BYTES = 1024 * 1024;

/** Fastify-specific setup, shared by main.ts and the e2e tests. */
export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({ bodyLimit: READ_LIMIT_BYTES, trustProxy: true });
}

export function configureHttp(app: NestFastifyApplication): void {
  // Fastify's built-in JSON and text parsers throw before guards run; ours defers every problem.
  app.getHttpAdapter().getInstance().removeAllContentTypeParsers();
  app.useBodyParser('*', { bodyLimit: READ_LIMIT_BYTES }, async (request: FastifyRequest, body: Buffer) => {
    const routeConfig = request.routeOptions.config as { requestBody?: BodyPolicy };
    return decodeRequestBody(request.headers['content-type'], body, routeConfig.requestBody);
  });
  app.enableShutdownHooks();
  mountOpenApi(app);
}
