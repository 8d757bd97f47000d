import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Alert {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The operator's alert endpoint (OPERATOR_ALERT_URL): a real HTTP server that keeps every request with its raw body,
 * and a secret of its own for OPERATOR_ALERT_SECRET.
 */
export class AlertReceiver {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private readonly requests: { headers: Record<string, string>; raw: string; status: number }[] = [];
  private readonly scripted: number[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<AlertReceiver> {
    let receiver!: AlertReceiver;
    const server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        const status = receiver.scripted.shift() ?? 200;
        receiver.requests.push({ headers: request.headers as Record<string, string>, raw, status });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new AlertReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/lvs-alerts`);
    return receiver;
  }

  /** Answer the next requests with these statuses, in order (200 once they run out). */
  answerNext(...statuses: number[]): void {
    this.scripted.push(...statuses);
  }

  /** Each request's webhook-id and the status it was answered with, in order of arrival. */
  answers(): { id: string; status: number }[] {
    return this.requests.map(({ headers, status }) => ({ id: headers['webhook-id'], status }));
  }

  /** How many requests came, signed or not. */
  get count(): number {
    return this.requests.length;
  }

  /** Every alert so far, each verified with the Standard Webhooks signature made with this secret, and no other. */
  alerts(): Alert[] {
    return this.requests.map(({ headers, raw }) => {
      expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(raw, headers)).toThrow();
      return new Webhook(this.secret).verify(raw, headers) as Alert;
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
