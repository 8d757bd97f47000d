import { Injectable } from '@nestjs/common';
import { holderCheck } from '../holders/holder-check';
import { NameSearchSubjects } from '../holders/name-search-subjects';
import { lookupFailureCode, NameSearchResult } from '../lookups/lookup-outcome';
import { LookupQueue } from '../lookups/lookup-queue';
import { LOOKUP_PRIORITY } from '../lookups/lookups.queue';
import { ResultCache } from '../lookups/result-cache';
import { HolderDataProtection } from '../secrets/holder-data';
import { DISPATCH_CONCURRENCY } from './batch-dispatch';
import { BatchRepository, UncheckedHolder } from './batch.repository';
import { forEachLimited } from './for-each-limited';

/**
 * The holder checks of a batch's found rows, as verify-holder makes them: the name compared at once, and a date of
 * birth confirmed by one name search at batch priority through the one lookup queue. The batch stays RUNNING until
 * every check is written. A search that fails for good makes its row an ERROR, which POST …/retry looks up again.
 */
@Injectable()
export class BatchHolderChecks {
  constructor(
    private readonly repository: BatchRepository,
    private readonly subjects: NameSearchSubjects,
    private readonly lookups: LookupQueue,
    private readonly cache: ResultCache,
    private readonly holderData: HolderDataProtection,
  ) {}

  /** Writes every check that can be written now, and starts the searches the others need. */
  async advance(batchId: string): Promise<void> {
    const rows = await this.repository.uncheckedHolders(batchId);
    await forEachLimited(rows, DISPATCH_CONCURRENCY, (row) => this.advanceRow(batchId, row));
  }

  private async advanceRow(batchId: string, row: UncheckedHolder): Promise<void> {
    const { index, licence, holder, dateOfBirthSealed, holderJobId } = row;
    if (dateOfBirthSealed === null) return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, null));
    const subject = this.subjects.dateOfBirthSubject(licence, this.holderData.open(dateOfBirthSealed), LOOKUP_PRIORITY.batchItem);
    const cached = await this.cache.getByKey<NameSearchResult>(subject.cacheKey);
    if (cached) return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, cached));
    let jobId = holderJobId;
    if (jobId === null) {
      jobId = await subject.enqueue('');
      await this.repository.attachHolderJob(batchId, index, jobId);
    }
    // Read after the job id is stored: a search that finished before it was is settled here, not missed.
    const standing = await this.lookups.standing<NameSearchResult>(jobId);
    if (standing.state === 'completed') return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, standing.result));
    if (standing.state === 'failed') return this.repository.failHolderCheck(batchId, index, lookupFailureCode(standing.reason));
    // Gone without an answer in the cache (removed, or evicted): ask again on the next pass.
    if (standing.state === 'missing') await this.repository.attachHolderJob(batchId, index, await subject.enqueue(''));
  }
}
