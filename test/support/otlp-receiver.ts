import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as a test reads it: the OTLP/JSON fields that tell where it belongs, and its attributes made plain. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

/** OTLP's SpanKind numbers (SPAN_KIND_*), as the JSON encoding carries them. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

function plain(attributes: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? '')),
    ]),
  );
}

/**
 * A collector of our own on loopback: a real HTTP server that takes OTLP/HTTP trace exports in JSON (POST /v1/traces,
 * as the service's exporter sends them) and keeps every span. Anything else is answered 404, and counted.
 */
export class OtlpReceiver {
  private readonly received: ReceivedSpan[] = [];
  /** requests that were not a JSON trace export */
  refused = 0;

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver!: OtlpReceiver;
    const server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces' || request.headers['content-type'] !== 'application/json') {
          receiver.refused++;
          response.writeHead(404).end();
          return;
        }
        receiver.keep(JSON.parse(raw) as OtlpRequest);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  private keep(exported: OtlpRequest): void {
    for (const { resource, scopeSpans } of exported.resourceSpans) {
      const service = String(plain(resource.attributes)['service.name']);
      for (const { spans } of scopeSpans) {
        for (const span of spans) {
          this.received.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: plain(span.attributes),
          });
        }
      }
    }
  }

  /** Every span received so far of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.received.filter((span) => span.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
