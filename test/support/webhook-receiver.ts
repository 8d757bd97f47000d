import { createServer, IncomingMessage, Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { OpenApiContract } from './openapi-contract';

/** One request as the receiver got it, with the verdict of the independent standardwebhooks library. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, unknown>; mode: 'live' | 'test' };
  /** true when standardwebhooks verified the signature with the secret registered for the path */
  verified: boolean;
  answeredWith: number;
}

/**
 * A real HTTP server standing in for partners' endpoints: each path is one endpoint with its own
 * secret and scripted answers (200 once the script runs out), and every request is verified. Reading what
 * came (received, to) fails the test when a delivery does not match the served OpenAPI document's webhooks.
 */
export class WebhookReceiver {
  private readonly deliveries: ReceivedWebhook[] = [];
  private checkedCount = 0;
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, number[]>();
  private readonly holds = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = createServer((request, response) => {
      void receiver.answer(request).then((status) => {
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(String(status));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  /** Verify requests to `path` with this secret (the one POST /v1/webhooks returned). */
  useSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** Answer the next requests to `path` with these statuses, in order. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, [...statuses]);
  }

  /** Answer requests to `path` only this long after they arrived (each is in `received` from its arrival). */
  holdAnswers(path: string, ms: number): void {
    this.holds.set(path, ms);
  }

  /** Every request so far, in order of arrival. */
  get received(): ReceivedWebhook[] {
    this.checkAgainstDocument();
    return [...this.deliveries];
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((entry) => entry.path === path);
  }

  /** Checks the deliveries not checked yet; the document is the one the test's app served (each app loads it at start). */
  private checkAgainstDocument(): void {
    const unchecked = this.deliveries.slice(this.checkedCount);
    if (unchecked.length === 0) return;
    const contract = OpenApiContract.loaded();
    if (contract === undefined) throw new Error('Webhooks arrived, but no served OpenAPI document was loaded to check them against');
    const problems = unchecked.flatMap((delivery) => contract.webhookProblems(delivery));
    if (problems.length > 0) throw new Error(`A webhook delivery does not match the served OpenAPI document:\n  ${problems.join('\n  ')}`);
    this.checkedCount = this.deliveries.length;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : (value ?? '')]),
    );
    let verified = false;
    const secret = this.secrets.get(path);
    if (secret) {
      try {
        new Webhook(secret).verify(raw, headers);
        verified = true;
      } catch {
        verified = false;
      }
    }
    const status = this.scripts.get(path)?.shift() ?? 200;
    this.deliveries.push({ path, headers, raw, body: JSON.parse(raw) as ReceivedWebhook['body'], verified, answeredWith: status });
    await sleep(this.holds.get(path) ?? 0);
    return status;
  }
}
