import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A server span for each request, through Fastify's own hooks (nothing of Node's or Fastify's is patched). The span's
 * context is made active around the rest of the request's hooks and handler, so that the spans and log lines of its
 * work join its trace; the answer's traceparent header names it. Each request begins a trace of its own: a caller's
 * traceparent is not taken, so that no partner can choose our trace ids or what we record.
 */
export function traceRequests(fastify: FastifyInstance, tracer: Tracer): void {
  const traced = new WeakMap<FastifyRequest, Context>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(no route)';
    const span = tracer.startSpan(`${request.method} ${route}`, { kind: SpanKind.SERVER }, ROOT_CONTEXT);
    // Set once sampled, not passed at the start: the SDK checks attributes given at the start even for a span it then
    // drops, and most requests are not sampled. The sampler reads only the span's kind.
    if (span.isRecording()) span.setAttributes({ 'http.request.method': request.method, 'http.route': route });
    const active = trace.setSpan(ROOT_CONTEXT, span);
    traced.set(request, active);
    const carrier: Record<string, string> = {};
    propagation.inject(active, carrier);
    void reply.header('traceparent', carrier.traceparent);
    context.with(active, done);
  });
  const finish = (request: FastifyRequest, statusCode: number | undefined, done: () => void): void => {
    const active = traced.get(request);
    if (!active) return done();
    traced.delete(request);
    const span = trace.getSpan(active)!;
    if (statusCode === undefined) span.setAttribute('http.request.aborted', true);
    else span.setAttribute('http.response.status_code', statusCode);
    if (statusCode === undefined || statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    // The hooks after this one (the request's log line) run in the request's context too.
    context.with(active, done);
  };
  fastify.addHook('onResponse', (request, reply, done) => finish(request, reply.statusCode, done));
  fastify.addHook('onRequestAbort', (request, done) => finish(request, undefined, done));
}
