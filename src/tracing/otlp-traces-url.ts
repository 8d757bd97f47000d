/**
 * Where an OTLP/HTTP exporter sends spans, from OTEL_EXPORTER_OTLP_ENDPOINT: as the OpenTelemetry specification has it
 * for that variable, the collector's base URL with the signal's path, v1/traces, appended.
 */
export function otlpTracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}
