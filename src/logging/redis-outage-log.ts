import type { EventEmitter } from 'node:events';

interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/** A BullMQ queue, worker or queue-events object: it re-emits its connections' errors. */
interface QueueLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  getBackend(): { client: Promise<unknown> };
}

/**
 * Turns Redis errors into one warning per outage and one line when Redis is back, instead of an error
 * (or an unhandled-error stack) per command and per reconnect attempt. One per process: Redis is down
 * from the first client that fails until every client that failed is ready again.
 */
export class RedisOutageLog {
  private readonly down = new Set<EventEmitter>();

  constructor(private readonly logger: OutageLogger) {}

  /** An ioredis client: its 'error' and 'ready' events mark it down and up. */
  watchClient(client: EventEmitter): void {
    client.on('error', (error: Error) => this.failed(client, error));
    client.on('ready', () => this.recovered(client));
  }

  /**
   * A BullMQ object: its main client tells the state. Its own 'error' events repeat its connections'
   * errors; they need a listener, or BullMQ prints each with its stack.
   */
  watchQueue(queue: QueueLike): void {
    queue.on('error', () => undefined);
    queue.getBackend().client.then(
      (client) => this.watchClient(client as EventEmitter), // ioredis, for the built-in Redis backend
      () => undefined, // no client yet means no connection to watch; its errors are still swallowed above
    );
  }

  private failed(client: EventEmitter, error: Error): void {
    const wasUp = this.down.size === 0;
    this.down.add(client);
    if (wasUp) this.logger.warn(`Redis unreachable: ${error.message}; further Redis errors are not logged until it is back`);
  }

  private recovered(client: EventEmitter): void {
    if (this.down.delete(client) && this.down.size === 0) this.logger.log('Redis reachable again');
  }
}
