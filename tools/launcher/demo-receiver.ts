import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSignedBy } from '../../src/webhooks/verify-signature';

/** Where the demo's webhook endpoint points, where the answer of POST /v1/webhooks is piped to, and OPERATOR_ALERT_URL's path. */
export const DEMO_RECEIVER_PATHS = { webhooks: '/webhooks', secret: '/secret', alerts: '/alerts' } as const;
const MAX_BODY_BYTES = 256 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The demo's stand-in for a partner's webhook endpoint, on loopback: it learns the signing secret
 * from the piped answer of POST /v1/webhooks, then prints every event it receives with the
 * verdict on its Standard Webhooks signature. It is the operator's alert endpoint too, with the
 * OPERATOR_ALERT_SECRET the launcher gave the workers.
 */
export class DemoReceiver {
  private readonly secrets: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly alertSecret: string,
  ) {}

  static async start(say: (line: string) => void, alertSecret: string): Promise<DemoReceiver> {
    let receiver!: DemoReceiver;
    const server = createServer((request, response) => {
      void readBody(request)
        .then((body) => receiver.answer(request, body, say))
        .catch(() => 400)
        .then((status) => {
          response.writeHead(status, { 'content-type': 'text/plain' });
          response.end(status < 300 ? 'ok\n' : 'refused\n');
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new DemoReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, alertSecret);
    return receiver;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, body: string, say: (line: string) => void): number {
    if (request.method !== 'POST') return 405;
    if (request.url === DEMO_RECEIVER_PATHS.secret) {
      const { id, secret } = JSON.parse(body) as { id?: string; secret?: string };
      if (typeof secret !== 'string' || !secret.startsWith('whsec_')) return 400;
      this.secrets.push(secret);
      say(`Keeping the signing secret of webhook ${id ?? '?'} to verify what it sends`);
      return 200;
    }
    const alert = request.url === DEMO_RECEIVER_PATHS.alerts;
    if (!alert && request.url !== DEMO_RECEIVER_PATHS.webhooks) return 404;
    const headers = request.headers as Record<string, string | undefined>;
    const now = Math.floor(Date.now() / 1000);
    const verified = (alert ? [this.alertSecret] : this.secrets).some((secret) => isSignedBy(secret, headers, body, now));
    const { type } = JSON.parse(body) as { type?: string };
    const what = alert ? `operator alert ${type ?? '?'}` : (type ?? 'an event');
    say(`Received ${what} (webhook-id ${headers['webhook-id'] ?? '-'}): signature ${verified ? 'verified' : 'NOT verified'}`);
    say(body);
    return verified ? 204 : 401;
  }
}
