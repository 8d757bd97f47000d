import { context, propagation, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { BullMQOtel } from 'bullmq-otel';
import { queryTracer, startClientSpan, traceClientCalls } from './client-spans';
import { otlpTracesUrl } from './otlp-traces-url';
import { traceRequests } from './request-spans';
import { TraceBeginnings } from './trace-beginnings';
import type { SpanAttributes, Tracing } from './tracing-contract';

const TRACER_NAME = 'licence-verification-service';
// Spans reach the collector within about a second of ending, in batches.
const EXPORT_DELAY_MS = 1000;
const NO_FIELDS: Record<string, string> = {};

function inClientSpanOf(tracer: Tracer) {
  return async <T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> => {
    const span = startClientSpan(tracer, () => ({ name, attributes }));
    if (!span) return work();
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  };
}

function activeTraceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return NO_FIELDS;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return traceFlags & TraceFlags.SAMPLED ? { traceId, spanId } : NO_FIELDS;
}

/**
 * OpenTelemetry for this process: context through AsyncLocalStorage, W3C trace context, spans to the collector over
 * OTLP/HTTP (JSON). Loaded only by startTracing.
 */
export function createTracing(endpoint: string, serviceName: string, sampleRatio: number): Tracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceBeginnings(sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: otlpTracesUrl(endpoint) }), scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(TRACER_NAME);
  traceClientCalls(tracer);
  return {
    queueTelemetry: new BullMQOtel({ tracerName: TRACER_NAME }),
    querySubscriber: queryTracer(tracer),
    traceRequests: (fastify) => traceRequests(fastify, tracer),
    logFields: activeTraceFields,
    inClientSpan: inClientSpanOf(tracer),
    shutdown: () => provider.shutdown(),
  };
}
