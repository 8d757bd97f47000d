import type { Telemetry } from 'bullmq';
import type { FastifyInstance } from 'fastify';

/** What a span may carry besides its name. */
export type SpanAttributes = Record<string, string | number>;

/**
 * The process's tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set. Only types here: the OpenTelemetry SDK behind it is
 * loaded by startTracing, so that a process without tracing loads none of it and pays one undefined check per hook.
 */
export interface Tracing {
  /** BullMQ's `telemetry` option, for queues and workers: the job carries its producer's context (W3C traceparent). */
  readonly queueTelemetry: Telemetry;
  /** A TypeORM subscriber class: a span for each query that TypeORM runs inside traced work. */
  readonly querySubscriber: new () => object;
  /** A span for each HTTP request, its context active in the request's handling, and the traceparent answer header. */
  traceRequests(fastify: FastifyInstance): void;
  /** The fields of the active trace for a log line (traceId, spanId), or none outside traced work. */
  readonly logFields: () => Record<string, string>;
  /** `work` in a client span when inside traced work (a call our own code makes to a server). */
  inClientSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /** Sends the spans still held and stops. */
  shutdown(): Promise<void>;
}
