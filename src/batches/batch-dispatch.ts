import { Injectable } from '@nestjs/common';
import { numberSubject } from '../lookups/lookup-subject';
import { LookupService } from '../lookups/lookup.service';
import { Charge, QuotaService } from '../quota/quota.service';
import { itemResult } from './batch-view';
import { BatchRepository } from './batch.repository';
import { forEachLimited } from './for-each-limited';

// Enough parallel Redis and PostgreSQL round trips to dispatch 1,000 numbers quickly, few enough to share the pools.
export const DISPATCH_CONCURRENCY = 16;

/**
 * Sends a batch's numbers down the one lookup road as batch lookups: parked in the owner's pending list so that
 * users take turns, and sharing single flight, the cache and the register's rate limit with live verifications.
 */
@Injectable()
export class BatchDispatch {
  constructor(
    private readonly repository: BatchRepository,
    private readonly lookups: LookupService,
    private readonly quota: QuotaService,
  ) {}

  /**
   * A batch whose new lookups would take its user past their bound, or that needs any while the queue is
   * full or the register breaker is open, is refused as a whole: 503 before anything is charged or created.
   * One answered from the cache is served. Answers the release of the places held in the user's bound,
   * for the caller to call once the numbers are dispatched (or the request failed).
   */
  admit(userId: string, numbers: string[]): Promise<() => Promise<void>> {
    return this.lookups.reserve(
      { userId, monthlyQuota: null },
      numbers.map((licenceNumber) => numberSubject(licenceNumber)),
    );
  }

  /**
   * Answers each number from the cache or queues its lookup; a new charge waits on the job as its payer, refunded
   * if the lookup fails.
   */
  async dispatch(userId: string, batchId: string, numbers: string[], charges: Charge[]): Promise<void> {
    const newCharges = new Map(charges.map((charge) => [charge.licenceNumber, charge]));
    await forEachLimited(numbers, DISPATCH_CONCURRENCY, (licenceNumber) => this.lookUp(userId, batchId, licenceNumber, newCharges.get(licenceNumber)));
  }

  /**
   * One number of the batch: written at once from the cache, or its lookup queued (or joined) and the batch's items
   * tied to the job, which BatchSettlement settles when it finishes. `fromCache` false: the caller has just read it.
   */
  async lookUp(userId: string, batchId: string, licenceNumber: string, charge?: Charge, fromCache = true): Promise<void> {
    const answer = await this.lookups.lookup({
      subject: numberSubject(licenceNumber),
      user: { userId, monthlyQuota: null },
      kind: 'batch',
      cache: fromCache ? 'use' : 'read',
      payer: charge ?? null,
      onQueued: async (jobId) => {
        if (!(await this.repository.attachJob(batchId, licenceNumber, jobId))) await this.refundIfEnded(batchId, licenceNumber, charge);
      },
    });
    if (answer.state !== 'answered') return;
    const settled = await this.repository.settleNumber(batchId, licenceNumber, itemResult({ state: 'completed', result: answer.result }));
    if (!settled) await this.refundIfEnded(batchId, licenceNumber, charge);
  }

  /**
   * The number's rows ended before this lookup reached them (their batch was stopped, its user disabled): no
   * withdrawal saw the charge on a row, so it is refunded here, unless another lookup answered the rows first.
   * The job may finish meanwhile and forget its payers; a refund of a charge refunded already changes nothing.
   */
  private async refundIfEnded(batchId: string, licenceNumber: string, charge: Charge | undefined): Promise<void> {
    if (charge && !(await this.repository.holdsAnswer(batchId, { licenceNumber }))) await this.quota.refund(charge);
  }
}
