import { otlpTracesUrl } from './otlp-traces-url';

describe('otlpTracesUrl', () => {
  it('appends v1/traces to the base URL', () => {
    expect(otlpTracesUrl('http://collector:4318')).toBe('http://collector:4318/v1/traces');
  });

  it('keeps a base path and drops trailing slashes', () => {
    expect(otlpTracesUrl('https://otel.example.com/ingest/')).toBe('https://otel.example.com/ingest/v1/traces');
    expect(otlpTracesUrl('http://127.0.0.1:4318//')).toBe('http://127.0.0.1:4318/v1/traces');
  });
});
