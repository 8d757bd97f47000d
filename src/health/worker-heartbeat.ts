import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { CountSample, recentRate, WorkerTally } from '../metrics/register-tally';
import { RedisStore } from '../redis/redis.module';

/** The sorted set of workers by the time each last wrote its heartbeat (ms since epoch). */
export const WORKERS_SEEN_KEY = 'workers-seen';
/** Each worker's register tally as of its last beat, under `worker-tally:<worker id>`. */
const WORKER_TALLY_KEY = 'worker-tally';
/** The window of a worker's lookup attempts per second. */
const RATE_WINDOW_MS = 60_000;

/** How many workers wrote a heartbeat within the window; the API's readiness asks this. */
export async function countLiveWorkers(redis: RedisStore, windowMs: number): Promise<number> {
  return redis.client.zcount(redis.key(WORKERS_SEEN_KEY), Date.now() - windowMs, '+inf');
}

/** The register tallies of the workers that wrote a heartbeat within the window, one per worker. */
export async function readWorkerTallies(redis: RedisStore, windowMs: number): Promise<WorkerTally[]> {
  const ids = await redis.client.zrangebyscore(redis.key(WORKERS_SEEN_KEY), Date.now() - windowMs, '+inf');
  const stored = await Promise.all(ids.map((id) => redis.client.get(redis.key(`${WORKER_TALLY_KEY}:${id}`))));
  return stored.filter((text) => text !== null).map((text) => JSON.parse(text) as WorkerTally);
}

/**
 * The worker's heartbeat: its entry in Redis, refreshed three times per window so that one slow beat
 * does not make the API unready. Removed on shutdown, so a stopped worker stops counting at once.
 * Each beat also writes the worker's register tally (its /metrics lookup counts and duration buckets, and its
 * attempts per second over the last minute): the operator console's Register page sums the live workers' tallies,
 * which no request pays for.
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Heartbeat');
  private readonly id = `${hostname()}:${process.pid}`;
  private timer: NodeJS.Timeout | undefined;
  /** This worker's lookup attempts counted at each beat, a rate window's worth. */
  private attempts: CountSample[] = [];

  constructor(
    private readonly redis: RedisStore,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
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
    await this.redis.client
      .multi()
      .zrem(this.redis.key(WORKERS_SEEN_KEY), this.id)
      .del(this.tallyKey())
      .exec()
      .catch((error: unknown) => {
        this.logger.warn(`Heartbeat not removed: ${(error as Error).message}`);
      });
  }

  private async beat(windowMs: number): Promise<void> {
    const key = this.redis.key(WORKERS_SEEN_KEY);
    const now = Date.now();
    const tally = await this.metrics.registerTally();
    const rate = recentRate([...this.attempts, { at: now, total: Object.values(tally.lookups).reduce((sum, count) => sum + count, 0) }], RATE_WINDOW_MS);
    this.attempts = rate.kept;
    const published: WorkerTally = { ...tally, perSecond: rate.perSecond };
    await this.redis.client
      .multi()
      .zadd(key, now, this.id)
      .zremrangebyscore(key, '-inf', now - 10 * windowMs) // crashed workers' old entries
      // Read only while this worker counts as live (within the window); the expiry clears a crashed worker's.
      .set(this.tallyKey(), JSON.stringify(published), 'PX', 2 * windowMs)
      .exec();
  }

  private tallyKey(): string {
    return this.redis.key(`${WORKER_TALLY_KEY}:${this.id}`);
  }
}
