import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Clock } from '../clock/clock';
import type { LookupStanding } from '../lookups/lookup-outcome';
import { LookupService } from '../lookups/lookup.service';
import { RedisBroadcasts } from '../redis/redis-broadcasts';
import { BatchDispatch, DISPATCH_CONCURRENCY } from './batch-dispatch';
import { BatchHolderChecks } from './batch-holder-checks';
import { itemResult } from './batch-view';
import { BatchRepository } from './batch.repository';
import { forEachLimited } from './for-each-limited';

// A running batch is reconciled against the queue at most this often when it is viewed, per API process.
const RECONCILE_INTERVAL_MS = 10_000;
// How often each API process looks for running batches of disabled users, to stop them.
const STOP_DISABLED_INTERVAL_MS = 5000;
// Tells every API process that a batch completed, with its id.
const COMPLETIONS_CHANNEL = 'batch-completions';

/**
 * Writes finished lookups into the items waiting on them and completes batches. Every API process
 * hears every finished job through LookupQueue; a reconciliation against the queue and the cache
 * catches whatever a crash let pass unheard.
 */
@Injectable()
export class BatchSettlement implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Batches');
  /** emits a batch's id when this process sees it has no pending item left */
  private readonly completions = new EventEmitter();
  private readonly lastReconciled = new Map<string, number>();
  private stopTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: BatchRepository,
    private readonly dispatch: BatchDispatch,
    private readonly lookups: LookupService,
    private readonly holderChecks: BatchHolderChecks,
    private readonly clock: Clock,
    private readonly broadcasts: RedisBroadcasts,
  ) {
    this.completions.setMaxListeners(0);
    this.lookups.onFinished((jobId) => {
      this.settleJob(jobId).catch((error: unknown) => this.logger.error(`Writing the results of lookup ${jobId} failed: ${(error as Error).message}`));
    });
  }

  /**
   * Hears batches completed by any API process: every process hears every finished lookup, and the first to settle
   * a batch's last rows completes it, while its request may be waiting in another. Lookups may have finished while
   * no API process listened: settle every running batch once.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.broadcasts.subscribe(COMPLETIONS_CHANNEL, (batchId) => this.heardCompleted(batchId));
    this.reconcileRunning().catch((error: unknown) => this.logger.error(`Reconciling running batches failed: ${(error as Error).message}`));
    this.stopTimer = setInterval(() => {
      this.stopDisabled().catch((error: unknown) => this.logger.warn(`Stopping the batches of disabled users failed: ${(error as Error).message}`));
    }, STOP_DISABLED_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.stopTimer);
  }

  /**
   * A disabled user's running batches stop: the rows still waiting end as ERROR (SERVICE_UNAVAILABLE), their
   * lookups are withdrawn with their charges refunded, and the batches complete. A row whose lookup answers first
   * keeps its answer and its charge. Several processes (and overlapping runs of one) may do it at once: a row ends
   * once, and whichever run withdrew a job's charges refunds them unless the rows hold the job's answer, whoever
   * ended them. A row tied to its job after the jobs were read is left to the next run; one whose job comes later
   * still is BatchDispatch's to refund.
   */
  async stopDisabled(): Promise<void> {
    for (const { id, userId } of await this.repository.runningOfDisabledUsers()) {
      const jobIds = await this.repository.pendingJobs(id);
      for (const jobId of jobIds) await this.lookups.withdraw(userId, jobId, () => this.endUnanswered(id, jobId));
      await this.repository.failWaiting(id, 'SERVICE_UNAVAILABLE');
      await this.completeIfDone(id);
      this.logger.log(`Stopped batch ${id} of a disabled user: its lookups on ${jobIds.length} job(s) withdrawn`);
    }
  }

  /** Calls `listener` once this process sees the batch complete; returns what stops listening. */
  onCompleted(batchId: string, listener: () => void): () => void {
    this.completions.on(batchId, listener);
    return () => this.completions.off(batchId, listener);
  }

  /**
   * Resolves a batch's pending items from the queue's record of their jobs, or looks the number up again
   * (the cache first) when the job is gone. A failed job found here is refunded
   * through its payers, which only one process can take.
   */
  async reconcile(userId: string, batchId: string): Promise<void> {
    this.lastReconciled.set(batchId, Date.now());
    const pending = await this.repository.pendingNumbers(batchId);
    await forEachLimited(pending, DISPATCH_CONCURRENCY, async ({ licenceNumber, jobId }) => {
      const standing: LookupStanding = jobId ? await this.lookups.standing(jobId) : { state: 'missing' };
      if (standing.state === 'pending') return;
      if (standing.state === 'failed' && jobId) {
        await this.lookups.refundFailed(jobId);
      }
      if (standing.state !== 'missing') await this.repository.settleNumber(batchId, licenceNumber, itemResult(standing));
      else await this.dispatch.lookUp(userId, batchId, licenceNumber);
    });
    await this.completeIfDone(batchId);
  }

  /** Reconciles a running batch unless this process did so lately; answers whether it did. */
  async reconcileIfDue(userId: string, batchId: string): Promise<boolean> {
    if (Date.now() - (this.lastReconciled.get(batchId) ?? 0) <= RECONCILE_INTERVAL_MS) return false;
    await this.reconcile(userId, batchId);
    return true;
  }

  /** Writes the result of a finished lookup into every pending item waiting on it, or the holder checks waiting on a search. */
  private async settleJob(jobId: string): Promise<void> {
    for (const batchId of await this.repository.batchesOnHolderJob(jobId)) await this.completeIfDone(batchId);
    if (!(await this.repository.anyPendingOnJob(jobId))) return; // most finished lookups are live verifications
    const standing = await this.lookups.standing(jobId);
    if (standing.state !== 'completed' && standing.state !== 'failed') return;
    for (const batchId of await this.repository.settleJob(jobId, itemResult(standing))) await this.completeIfDone(batchId);
  }

  /**
   * Ends the batch's rows waiting on the job; answers whether they are left without its answer. A job that completed
   * before its charges were withdrawn had its payers forgotten (they owe the answer): its rows get that answer, not an
   * ERROR, even if its settlement has not reached them yet.
   */
  private async endUnanswered(batchId: string, jobId: string): Promise<boolean> {
    const standing = await this.lookups.standing(jobId);
    if (standing.state === 'completed') {
      for (const other of await this.repository.settleJob(jobId, itemResult(standing))) if (other !== batchId) await this.completeIfDone(other);
    }
    await this.repository.failWaiting(batchId, 'SERVICE_UNAVAILABLE', jobId);
    return !(await this.repository.holdsAnswer(batchId, { jobId }));
  }

  /** Makes the holder checks that can be made, then marks the batch COMPLETED once nothing is pending, and tells whoever waits here. */
  private async completeIfDone(batchId: string): Promise<void> {
    await this.holderChecks.advance(batchId);
    const { done, completedHere } = await this.repository.completeIfDone(batchId, this.clock.now());
    if (!done) return;
    // Completed by another process, whose broadcast tells the rest: only whoever waits here is told.
    if (!completedHere) {
      this.heardCompleted(batchId);
      return;
    }
    // Whoever waits here is told at once, whether or not the broadcast reaches Redis. Not told: a request waiting in
    // another process answers at its deadline, with the batch as it then is.
    await this.broadcasts.publish(COMPLETIONS_CHANNEL, batchId).catch((error: unknown) => {
      this.logger.warn(`Telling the other API processes that batch ${batchId} completed failed: ${(error as Error).message}`);
    });
  }

  private heardCompleted(batchId: string): void {
    this.lastReconciled.delete(batchId);
    this.completions.emit(batchId);
  }

  private async reconcileRunning(): Promise<void> {
    for (const { id, userId } of await this.repository.running()) await this.reconcile(userId, id);
  }
}
