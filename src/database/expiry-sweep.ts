import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../clock/clock';

const SWEEP_INTERVAL_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/**
 * Deletes what is older than its retention, at start-up and hourly. Every process that runs one may overlap
 * with another's: the DELETE is one statement, so overlapping runs only find less to delete.
 */
export abstract class ExpirySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  /** `noun` names what it deletes ("batches"), `dated` by which time ("created before"). */
  protected constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly noun: string,
    private readonly dated: string,
  ) {}

  /** How many days rows are kept. */
  protected abstract retentionDays(): number;

  /** Deletes the rows dated before `cutoff`; returns how many. */
  protected abstract deleteBefore(cutoff: Date): Promise<number>;

  onApplicationBootstrap(): void {
    const run = () =>
      this.deleteExpired().catch((error: unknown) => this.logger.error(`Deleting expired ${this.noun} failed: ${(error as Error).message}`));
    void run();
    this.timer = setInterval(() => void run(), SWEEP_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Returns how many rows it deleted. */
  async deleteExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.retentionDays() * DAY_MS);
    const deleted = await this.deleteBefore(cutoff);
    if (deleted > 0) this.logger.log(`Deleted ${deleted} ${this.noun} ${this.dated} ${cutoff.toISOString()}`);
    return deleted;
  }
}
