import { Injectable } from '@nestjs/common';
import { DateOfBirthChecks } from '../holders/date-of-birth-checks';
import { holderCheck } from '../holders/holder-check';
import { NameSearchSubjects } from '../holders/name-search-subjects';
import { lookupFailureCode, NameSearchResult } from '../lookups/lookup-outcome';
import { LookupService } from '../lookups/lookup.service';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { DISPATCH_CONCURRENCY } from './batch-dispatch';
import { BatchRepository, UncheckedHolder } from './batch.repository';
import { forEachLimited } from './for-each-limited';

/**
 * The holder checks of a batch's found rows, as verify-holder makes them: the name compared at once, and a date of
 * birth confirmed by one name search, a batch lookup in the owner's turn on the one lookup road, within the owner's
 * bound of dates per number (past it, NOT_CHECKED). The batch stays RUNNING until every check is written. A search
 * that fails for good makes its row an ERROR, which POST …/retry looks up again.
 */
@Injectable()
export class BatchHolderChecks {
  constructor(
    private readonly repository: BatchRepository,
    private readonly subjects: NameSearchSubjects,
    private readonly lookups: LookupService,
    private readonly dateOfBirthChecks: DateOfBirthChecks,
    private readonly holderData: HolderDataProtection,
  ) {}

  /** Writes every check that can be written now, and starts the searches the others need. */
  async advance(batchId: string): Promise<void> {
    const rows = await this.repository.uncheckedHolders(batchId);
    // The dates are admitted in roster order, before any search starts: past the bound, the later rows go unchecked.
    const admitted = new Set<number>();
    for (const row of rows) {
      if (row.dateOfBirthSealed === null) continue;
      if (row.holderJobId !== null || (await this.dateOfBirthChecks.admit(row.userId, row.licence.licenceNumber, this.dateOfBirth(batchId, row)))) {
        admitted.add(row.index);
      }
    }
    await forEachLimited(rows, DISPATCH_CONCURRENCY, (row) => this.advanceRow(batchId, row, admitted.has(row.index)));
  }

  /** The row's date of birth, opened for that row alone: a sealed date copied into another row does not open. */
  private dateOfBirth(batchId: string, row: UncheckedHolder): string {
    return this.holderData.open(row.dateOfBirthSealed!, holderDataRow.batchItem(batchId, row.index));
  }

  private async advanceRow(batchId: string, row: UncheckedHolder, admitted: boolean): Promise<void> {
    const { index, licence, holder, dateOfBirthSealed, userId } = row;
    if (dateOfBirthSealed === null || !admitted) return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, null));
    const subject = this.subjects.dateOfBirthSubject(licence, this.dateOfBirth(batchId, row));
    let jobId = row.holderJobId;
    if (jobId === null) {
      const answer = await this.lookups.lookup<NameSearchResult>({
        subject,
        user: { userId, monthlyQuota: null },
        kind: 'batch',
        cache: 'use',
        payer: null,
        onQueued: (queued) => this.repository.attachHolderJob(batchId, index, queued),
      });
      if (answer.state === 'answered') return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, answer.result));
      jobId = answer.jobId;
    }
    // Read after the job id is stored: a search that finished before it was is settled here, not missed.
    const standing = await this.lookups.standing<NameSearchResult>(jobId);
    if (standing.state === 'completed') return this.repository.writeHolderCheck(batchId, index, holderCheck(licence, holder, standing.result));
    if (standing.state === 'failed') return this.repository.failHolderCheck(batchId, index, lookupFailureCode(standing.reason));
    // Gone without an answer (removed, or evicted from the cache): ask again.
    if (standing.state === 'missing') return this.advanceRow(batchId, { ...row, holderJobId: null }, admitted);
  }
}
