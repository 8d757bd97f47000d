import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';

/** The sorted set of workers by the time each last wrote its heartbeat (ms since epoch). */
export const WORKERS_SEEN_KEY = 'workers-seen';

/** How many workers wrote a heartbeat within the window; the API's readiness asks this. */
export async function countLiveWorkers(redis: RedisStore, windowMs: number): Promise<number> {
  return redis.client.zcount(redis.key(WORKERS_SEEN_KEY), Date.now() - windowMs, '+inf');
}

/**
 * The worker's heartbeat: its entry in Redis, refreshed three times per window so that one slow beat
 * does not make the API unready. Removed on shutdown, so a stopped worker stops counting at once.
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Heartbeat');
  private readonly id = `${hostname()}:${process.pid}`;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisStore,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const windowMs = this.config.get('WORKER_HEARTBEAT_TIMEOUT_MS');
    await this.beat(windowMs);
    this.timer = setInterval(
      () => {
        this.beat(windowMs).catch((error: unknown) => this.logger.warn(`Heartbeat not written: ${(error as Error).message}`));
      },
      Math.floor(windowMs / 3),
    );
    this.timer.unref();
  }

  /** First in the shutdown, beside the workers' stopping: the API counts this worker out at once. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.client.zrem(this.redis.key(WORKERS_SEEN_KEY), this.id).catch((error: unknown) => {
      this.logger.warn(`Heartbeat not removed: ${(error as Error).message}`);
    });
  }

  private async beat(windowMs: number): Promise<void> {
    const key = this.redis.key(WORKERS_SEEN_KEY);
    const now = Date.now();
    await this.redis.client
      .multi()
      .zadd(key, now, this.id)
      .zremrangebyscore(key, '-inf', now - 10 * windowMs) // crashed workers' old entries
      .exec();
  }
}
