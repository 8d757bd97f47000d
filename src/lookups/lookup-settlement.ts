import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metrics } from '../metrics/metrics';
import { QuotaService } from '../quota/quota.service';
import { LookupPayers } from './lookup-payers';
import { LookupQueue } from './lookup-queue';

// How often every process looks for failed lookups whose refund nobody made (no process alive when
// they failed, or one that died mid-refund), and how long a refund is leased to the process doing it.
const SWEEP_INTERVAL_MS = 30_000;
const REFUND_LEASE_MS = 60_000;
const SWEEP_BATCH = 200;
const REFUND_WAIT_MS = 3000;
const REFUND_POLL_MS = 20;

/**
 * Settles the payers of every finished lookup, in every process (API and worker): refunds them
 * when the lookup failed for good, forgets them when it succeeded. It listens to the queue's
 * events, and sweeps at start-up and on a timer for jobs that finished while nobody listened.
 */
@Injectable()
export class LookupSettlement implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LookupSettlement');
  private readonly refunds = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly quota: QuotaService,
    private readonly payers: LookupPayers,
    private readonly lookups: LookupQueue,
    private readonly metrics: Metrics,
  ) {
    this.lookups.onLookupFinished((jobId, outcome) => this.settleLogged(jobId, outcome));
  }

  onApplicationBootstrap(): void {
    void this.sweepLogged();
    this.timer = setInterval(() => void this.sweepLogged(), SWEEP_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /**
   * Refunds every new charge waiting on a failed lookup, once; concurrent callers in a process share
   * one run. When another process is refunding, waits (up to REFUND_WAIT_MS) until it is done, so
   * that a client answered with the failure is refunded by then.
   */
  refund(jobId: string): Promise<void> {
    let running = this.refunds.get(jobId);
    if (!running) {
      running = (async () => {
        let claim = await this.payers.claimRefund(jobId, REFUND_LEASE_MS);
        for (const waitUntil = Date.now() + REFUND_WAIT_MS; claim.outcome === 'busy' && Date.now() < waitUntil;) {
          await sleep(REFUND_POLL_MS);
          claim = await this.payers.claimRefund(jobId, REFUND_LEASE_MS);
        }
        if (claim.outcome !== 'claimed') return;
        const { charges } = claim;
        try {
          for (const charge of charges) await this.quota.refund(charge);
        } catch (error) {
          // Give the lease back, so that the next sweep in any process (a new one's first) tries again.
          await this.payers.postpone(jobId, 0).catch(() => undefined);
          throw error;
        }
        await this.payers.refunded(jobId);
        this.logger.log(`Refunded ${charges.length} charge(s) of failed lookup ${jobId}`);
      })().finally(() => this.refunds.delete(jobId));
      this.refunds.set(jobId, running);
    }
    return running;
  }

  /** One pass over the unsettled jobs and the charge intents that are due; returns how many it settled. */
  async sweep(): Promise<number> {
    let settled = 0;
    for (const charge of await this.payers.dueIntents(SWEEP_BATCH)) {
      await this.quota.refund(charge);
      await this.payers.dropIntent(charge);
      this.logger.log('Refunded a charge whose request ended before its lookup was recorded');
      settled += 1;
    }
    for (const jobId of await this.payers.due(SWEEP_BATCH)) {
      const standing = await this.lookups.standing(jobId);
      if (standing.state === 'pending') {
        await this.payers.postpone(jobId, SWEEP_INTERVAL_MS);
        continue;
      }
      // A job removed before anyone settled it (hours with no process running): its outcome is
      // unknown, and a refund could make a delivered answer free, so its record only goes.
      if (standing.state === 'missing') this.logger.warn(`Lookup ${jobId} is gone with its payers unsettled; forgetting them`);
      await this.settle(jobId, standing.state === 'failed' ? 'failed' : 'completed');
      settled += 1;
    }
    return settled;
  }

  private settle(jobId: string, outcome: 'completed' | 'failed'): Promise<void> {
    return outcome === 'failed' ? this.refund(jobId) : this.payers.forget(jobId);
  }

  private settleLogged(jobId: string, outcome: 'completed' | 'failed'): void {
    this.settle(jobId, outcome).catch((error: unknown) =>
      // The sweep settles it later.
      this.logger.warn(`Settling payers of lookup ${jobId} (${outcome}) failed: ${(error as Error).message}`),
    );
  }

  private async sweepLogged(): Promise<void> {
    try {
      const settled = await this.sweep();
      if (settled > 0) this.logger.log(`Sweep settled ${settled} finished lookup(s)`);
    } catch (error) {
      this.metrics.countLedgerSweepFailure();
      this.logger.warn(`Sweeping unsettled lookups failed: ${(error as Error).message}`);
    }
  }
}
