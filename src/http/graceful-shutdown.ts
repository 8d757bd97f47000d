import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ERROR_CODES } from '../errors/error-codes';

const CLOSING_MESSAGE = 'The service is restarting; try again later';

/**
 * SIGTERM/SIGINT for the API. Nest's own shutdown hooks would close the queue events and the pools
 * first and the HTTP server last, so in-flight requests lost their results (202) and clients' keep-alive
 * connections held the process for a minute. Here the order is: stop accepting, answer everything already
 * in flight with its real result, then close the pools; and the process exits within the grace regardless.
 * The operators' listener, when there is one, closes with the partner port and before the pools: its probes
 * and scrapes are short, and an orchestrator has stopped sending traffic by then anyway.
 * Call before listen(): the hooks must be in place when Fastify starts.
 */
export function installGracefulShutdown(app: NestFastifyApplication, graceMs: number, operators?: NestFastifyApplication): void {
  const logger = new Logger('Shutdown');
  const fastify = app.getHttpAdapter().getInstance();
  let closing = false;

  // A request arriving on a kept-alive connection after the signal gets our 503 body, and the
  // connection closes after it; responses still in flight close theirs too.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void reply
      .header('Connection', 'close')
      .status(ERROR_CODES.SERVICE_UNAVAILABLE.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ code: 'SERVICE_UNAVAILABLE', message: CLOSING_MESSAGE });
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closing) void reply.header('Connection', 'close');
    done(null, payload);
  });

  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    const inFlight = await new Promise<number>((resolve) => fastify.server.getConnections((_, count) => resolve(count)));
    logger.log(`${signal}: no longer accepting connections; ${inFlight} open, grace ${graceMs} ms`);
    const deadline = setTimeout(() => {
      logger.warn(`Grace of ${graceMs} ms is over: dropping the connections left and exiting`);
      fastify.server.closeAllConnections();
      operators?.getHttpServer().closeAllConnections();
      process.exit(1);
    }, graceMs);
    deadline.unref();
    try {
      await Promise.all([fastify.close(), operators?.close()]);
      logger.log(`Answered every request in flight in ${Date.now() - started} ms; closing queue and pools`);
      await app.close();
      logger.log(`Stopped in ${Date.now() - started} ms`);
    } catch (error) {
      logger.error(`Shutdown failed: ${(error as Error).message}`);
      process.exitCode = 1;
    } finally {
      clearTimeout(deadline);
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, (name) => void shutDown(name));
}
