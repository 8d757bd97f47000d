import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
import { ERROR_CODES } from '../errors/error-codes';
import { Metrics } from '../metrics/metrics';
import { RedisStore } from '../redis/redis.module';

function sendJson(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/**
 * The worker's operators' listener on WORKER_HTTP_PORT: /metrics, /health/live and /health/ready
 * (Redis answers). The worker has no Nest HTTP stack, so plain node:http is enough.
 */
@Injectable()
export class WorkerListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkerListener');
  private server: Server | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly redis: RedisStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((request, response) => {
      this.answer(request.method ?? '', request.url ?? '', response).catch(() => {
        if (!response.headersSent) sendJson(response, 500, { code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.message });
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.get('WORKER_HTTP_PORT'), this.config.get('HOST'), resolve);
    });
    const { port } = server.address() as AddressInfo;
    this.logger.log(`Operators' listener (/metrics, /health/*) on ${this.config.get('HOST')}:${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(method: string, url: string, response: ServerResponse): Promise<void> {
    const route = `${method} ${url.split('?')[0]}`;
    if (route === 'GET /metrics') {
      const body = await this.metrics.render();
      response.writeHead(200, { 'content-type': this.metrics.contentType }).end(body);
    } else if (route === 'GET /health/live') {
      sendJson(response, 200, { status: 'ok' });
    } else if (route === 'GET /health/ready') {
      // No timer of our own: the fail-fast client already gives up after DEPENDENCY_TIMEOUT_MS (its
      // command timeout) and at once while disconnected, and a timer raced here outlived every answer.
      const ready = await this.redis.client.ping().then(
        () => true,
        () => false,
      );
      if (ready) sendJson(response, 200, { status: 'ok' });
      else sendJson(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'The worker cannot reach Redis; try again later' });
    } else {
      sendJson(response, 404, { code: 'ROUTE_NOT_FOUND', message: ERROR_CODES.ROUTE_NOT_FOUND.message });
    }
  }
}
