import { Injectable } from '@nestjs/common';
import { LookupAdmission } from '../lookups/lookup-admission';
import { LookupPayers } from '../lookups/lookup-payers';
import { LookupQueue } from '../lookups/lookup-queue';
import { LOOKUP_PRIORITY } from '../lookups/lookups.queue';
import { ResultCache } from '../lookups/result-cache';
import { Charge } from '../quota/quota.service';
import { itemResult } from './batch-view';
import { BatchRepository } from './batch.repository';
import { forEachLimited } from './for-each-limited';

// Enough parallel Redis and PostgreSQL round trips to dispatch 1,000 numbers quickly, few enough to share the pools.
export const DISPATCH_CONCURRENCY = 16;

/**
 * Sends a batch's numbers down the one lookup queue at batch priority, parked in the owner's pending list
 * so that users take turns, and sharing single flight, the cache and the register's rate limit with live
 * verifications.
 */
@Injectable()
export class BatchDispatch {
  constructor(
    private readonly repository: BatchRepository,
    private readonly lookups: LookupQueue,
    private readonly payers: LookupPayers,
    private readonly cache: ResultCache,
    private readonly admission: LookupAdmission,
  ) {}

  /**
   * A batch whose new lookups would take its user past their bound, or that needs any while the queue is
   * full or the register breaker is open, is refused as a whole: 503 before anything is charged or created.
   * One answered from the cache is served. Answers the release of the places held in the user's bound,
   * for the caller to call once the numbers are dispatched (or the request failed).
   */
  async admit(userId: string, numbers: string[]): Promise<() => Promise<void>> {
    const newLookups = await this.cache.countMissing(numbers);
    return newLookups > 0 ? this.admission.admitBatch(userId, newLookups) : async () => undefined;
  }

  /**
   * Answers each number from the cache or enqueues its lookup; a new charge waits on the job as its
   * payer, refunded if the lookup fails.
   */
  async dispatch(userId: string, batchId: string, numbers: string[], charges: Charge[]): Promise<void> {
    const newCharges = new Map(charges.map((charge) => [charge.licenceNumber, charge]));
    await forEachLimited(numbers, DISPATCH_CONCURRENCY, async (licenceNumber) => {
      const cached = await this.cache.get(licenceNumber);
      if (cached) {
        await this.repository.settleNumber(batchId, licenceNumber, itemResult({ state: 'completed', result: cached }));
        return;
      }
      await this.enqueue(userId, batchId, licenceNumber, newCharges.get(licenceNumber));
    });
  }

  /** Enqueues the number's lookup (or joins the one in flight) and ties the batch's items to its job. */
  async enqueue(userId: string, batchId: string, licenceNumber: string, charge?: Charge): Promise<void> {
    const jobId = await this.lookups.enqueueFor(userId, licenceNumber, LOOKUP_PRIORITY.batchItem);
    if (charge) await this.payers.add(jobId, charge);
    await this.repository.attachJob(batchId, licenceNumber, jobId);
  }
}
