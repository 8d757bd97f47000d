import type { FastifyInstance } from 'fastify';
import { Metrics } from './metrics';

/** Times every request by route pattern (never the raw URL, which would make a series per number). */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeHttpRequest(request.method, request.routeOptions.url ?? '(no route)', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
