import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import diagnosticsChannel from 'node:diagnostics_channel';
import { EventSubscriber } from 'typeorm';
import type { AfterQueryEvent, BeforeQueryEvent, QueryRunner } from 'typeorm';
import { sqlOperation } from './span-choices';

/**
 * A client span under the active one, or none outside traced work (a dropped root counts as outside). `describe` runs
 * only inside it: most calls are made by requests that are not sampled, and pay nothing for a span's name.
 */
export function startClientSpan(tracer: Tracer, describe: () => { name: string; attributes: Attributes }): Span | undefined {
  if (!trace.getSpan(context.active())?.isRecording()) return undefined;
  const { name, attributes } = describe();
  return tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
}

function endWithError(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}

interface UndiciRequest {
  method: string;
  origin: string;
}

/**
 * A span for each HTTP request made with undici (the register's pages, webhook and alert deliveries), from the events
 * undici publishes on diagnostics_channel. The span names the method and the server only: paths and queries of
 * partners' webhook URLs may hold their secrets. No header is added: traces end at our edge.
 */
function traceUndiciRequests(tracer: Tracer): void {
  const spans = new WeakMap<UndiciRequest, Span>();
  diagnosticsChannel.subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest };
    const span = startClientSpan(tracer, () => {
      const origin = new URL(request.origin);
      return {
        name: request.method,
        attributes: {
          'http.request.method': request.method,
          'server.address': origin.hostname,
          'server.port': Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)),
        },
      };
    });
    if (span) spans.set(request, span);
  });
  diagnosticsChannel.subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    const span = spans.get(request);
    span?.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
  });
  diagnosticsChannel.subscribe('undici:request:trailers', (message) => {
    const { request } = message as { request: UndiciRequest };
    spans.get(request)?.end();
    spans.delete(request);
  });
  diagnosticsChannel.subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: UndiciRequest; error: unknown };
    const span = spans.get(request);
    if (span) endWithError(span, error);
    spans.delete(request);
  });
}

interface RedisCall {
  command?: string;
  batchMode?: string;
  database: number;
  serverAddress: string;
  serverPort?: number;
  error?: unknown;
}

/**
 * A span for each Redis command (and MULTI batch) made inside traced work, from the tracing channels ioredis publishes.
 * The command's arguments are left out: keys and values can hold licence numbers.
 */
function traceRedisCommands(tracer: Tracer): void {
  const spans = new WeakMap<RedisCall, Span>();
  const handlers = {
    start(message: unknown) {
      const call = message as RedisCall;
      const span = startClientSpan(tracer, () => {
        const operation = (call.command ?? call.batchMode ?? 'unknown').toUpperCase();
        return {
          name: operation,
          attributes: {
            'db.system.name': 'redis',
            'db.operation.name': operation,
            'db.namespace': String(call.database),
            'server.address': call.serverAddress,
            ...(call.serverPort !== undefined && { 'server.port': call.serverPort }),
          },
        };
      });
      if (span) spans.set(call, span);
    },
    asyncEnd(message: unknown) {
      const call = message as RedisCall;
      const span = spans.get(call);
      if (!span) return;
      spans.delete(call);
      if (call.error === undefined) span.end();
      else endWithError(span, call.error);
    },
    end() {},
    asyncStart() {},
    error() {},
  };
  diagnosticsChannel.tracingChannel('ioredis:command').subscribe(handlers);
  diagnosticsChannel.tracingChannel('ioredis:batch').subscribe(handlers);
}

/** Subscribes to what undici and ioredis publish; pg publishes nothing, so queries get spans from queryTracer. */
export function traceClientCalls(tracer: Tracer): void {
  traceUndiciRequests(tracer);
  traceRedisCommands(tracer);
}

/**
 * A TypeORM subscriber class: a span for each query TypeORM runs inside traced work, from its beforeQuery and
 * afterQuery events. A query runner runs one query at a time, so it pairs the two. The query's text is kept: it is
 * parameterised, its values are not.
 */
export function queryTracer(tracer: Tracer): new () => object {
  const spans = new WeakMap<QueryRunner, Span>();
  class QueryTracer {
    beforeQuery(event: BeforeQueryEvent): void {
      if (!event.queryRunner) return;
      const span = startClientSpan(tracer, () => {
        const operation = sqlOperation(event.query);
        return { name: operation, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': event.query } };
      });
      if (span) spans.set(event.queryRunner, span);
    }

    afterQuery(event: AfterQueryEvent): void {
      const span = event.queryRunner && spans.get(event.queryRunner);
      if (!span) return;
      spans.delete(event.queryRunner);
      if (event.success) span.end();
      else endWithError(span, event.error);
    }
  }
  // TypeORM builds only the subscribers its decorator registered.
  EventSubscriber()(QueryTracer);
  return QueryTracer;
}
