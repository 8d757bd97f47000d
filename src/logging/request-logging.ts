import type { FastifyInstance } from 'fastify';
import { Logger } from 'pino';

// Probes and scrapes arrive every few seconds; they log at debug so that request lines stay readable.
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * One JSON line per request: request id (echoed as X-Request-Id), route pattern, status, duration.
 * Never the URL, headers or body, which can carry keys and licence numbers.
 */
export function registerRequestLogging(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(no route)';
    const level = QUIET_ROUTES.has(route) ? 'debug' : 'info';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          requestId: request.id,
          method: request.method,
          route,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    }
    done();
  });
}
