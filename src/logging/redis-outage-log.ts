import type { EventEmitter } from 'node:events';

interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * Turns the Redis clients' error events into one warning per outage and one line when Redis is back,
 * instead of an error (or an unhandled-error stack) per command and per reconnect attempt.
 * One per process, shared by every client and queue it watches.
 */
export class RedisOutageLog {
  private down = false;

  constructor(private readonly logger: OutageLogger) {}

  failed(error: Error): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(`Redis unreachable: ${error.message}; further Redis errors are not logged until it is back`);
  }

  recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log('Redis reachable again');
  }

  /** An ioredis client, or a BullMQ queue, worker or queue events object (which re-emit their clients' errors). */
  watch(source: EventEmitter): void {
    source.on('error', (error: Error) => this.failed(error));
    source.on('ready', () => this.recovered());
  }
}
