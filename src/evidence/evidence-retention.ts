import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { EvidenceRepository } from './evidence.repository';

const CLEANUP_INTERVAL_MS = 3600_000;
const DAY_MS = 24 * 3600_000;

/**
 * Deletes verification records answered more than EVIDENCE_RETENTION_DAYS ago, at start-up and hourly. Every
 * worker runs it: the DELETE is one statement, so runs that overlap only find less to delete.
 */
@Injectable()
export class EvidenceRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EvidenceRetention');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: EvidenceRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const run = () =>
      this.deleteExpired().catch((error: unknown) => this.logger.error(`Deleting expired verification records failed: ${(error as Error).message}`));
    void run();
    this.timer = setInterval(run, CLEANUP_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Returns how many records it deleted. */
  async deleteExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.get('EVIDENCE_RETENTION_DAYS') * DAY_MS);
    const deleted = await this.repository.deleteAnsweredBefore(cutoff);
    if (deleted > 0) this.logger.log(`Deleted ${deleted} verification records answered before ${cutoff.toISOString()}`);
    return deleted;
  }
}
