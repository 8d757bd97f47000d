import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';
import { evidenceStreamKey } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';
import { RecordOwners } from './record-owners';
import type { VerificationRecord } from './verification-record';

/** Records per INSERT: one statement each, and one XDEL. */
const DRAIN_BATCH = 500;
/** The wait between turns when the stream is empty: a record is readable well within 5 s of its answer. */
const DRAIN_IDLE_MS = 200;

type StreamEntry = [id: string, fields: string[]];

/**
 * Moves the records the API appended to the evidence stream into PostgreSQL, oldest first, in batches (a deleted
 * user's are dropped); an entry leaves the stream only once its INSERT committed. Every worker runs it: two that read the same entries insert
 * them twice, which the INSERT's ON CONFLICT makes one.
 */
@Injectable()
export class EvidenceDrain implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EvidenceDrain');
  private running: Promise<void> | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly redis: RedisStore,
    private readonly repository: EvidenceRepository,
    private readonly owners: RecordOwners,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.loop();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  /** Drains one batch; returns how many records it moved. */
  async drainOnce(): Promise<number> {
    const key = evidenceStreamKey(this.redis);
    const entries = (await this.redis.client.xrange(key, '-', '+', 'COUNT', DRAIN_BATCH)) as StreamEntry[];
    if (entries.length === 0) return 0;
    await this.repository.insertMany(
      entries.map(([, fields]) => JSON.parse(fields[1]) as VerificationRecord),
      this.owners,
    );
    await this.redis.client.xdel(key, ...entries.map(([id]) => id));
    return entries.length;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const moved = await this.drainOnce().catch((error: unknown) => {
        this.logger.warn(`Draining verification records failed: ${(error as Error).message}`);
        return 0;
      });
      if (moved < DRAIN_BATCH && !this.stopped) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, DRAIN_IDLE_MS).unref();
        });
      }
    }
  }
}
