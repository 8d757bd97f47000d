import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { BatchRepository } from './batch.repository';

const CLEANUP_INTERVAL_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/**
 * Deletes batches (their items go with them) older than BATCH_RETENTION_DAYS, at start-up and
 * hourly. Every API process runs it: the DELETE is one statement, so runs that overlap only find
 * less to delete.
 */
@Injectable()
export class BatchRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BatchRetention');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: BatchRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const run = () =>
      this.deleteExpired().catch((error: unknown) =>
        this.logger.error(`Deleting expired batches failed: ${(error as Error).message}`),
      );
    void run();
    this.timer = setInterval(run, CLEANUP_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Returns how many batches it deleted. */
  async deleteExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.get('BATCH_RETENTION_DAYS') * DAY_MS);
    const deleted = await this.repository.deleteCreatedBefore(cutoff);
    if (deleted > 0) this.logger.log(`Deleted ${deleted} batches created before ${cutoff.toISOString()}`);
    return deleted;
  }
}
