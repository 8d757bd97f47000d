import type { SpanAttributes, Tracing } from './tracing-contract';

export type { SpanAttributes, Tracing } from './tracing-contract';

let current: Tracing | undefined;

/** The process's tracing, or undefined when it is off (OTEL_EXPORTER_OTLP_ENDPOINT unset). */
export function activeTracing(): Tracing | undefined {
  return current;
}

/**
 * Starts tracing to the OTLP/HTTP collector at `endpoint` (empty: off, and nothing is loaded), beginning a trace for
 * the share `sampleRatio` of requests and jobs. Each entry point calls it once, before Nest builds anything, so that
 * every queue, worker, data source and Fastify instance sees it.
 */
export function startTracing(endpoint: string, serviceName: string, sampleRatio: number): Tracing | undefined {
  if (endpoint === '') return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createTracing } = require('./otel-tracing') as typeof import('./otel-tracing');
  current = createTracing(endpoint, serviceName, sampleRatio);
  return current;
}

/** `work`, in a client span when tracing is on and the caller is inside traced work. */
export function inClientSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> {
  return current ? current.inClientSpan(name, attributes, work) : work();
}
