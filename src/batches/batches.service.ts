import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthenticatedUser, DataOwner } from '../auth/authenticated-user';
import { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { Charge, QuotaService } from '../quota/quota.service';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { BatchDispatch } from './batch-dispatch';
import { BatchSettlement } from './batch-settlement';
import { BatchCounts, BatchSummaryView, BatchView, isBatchId } from './batch-view';
import { BatchRepository, batchItemIndex, isUniqueViolation, StoredBatch } from './batch.repository';
import { NewestFirstCursor, PageRequest, writeNewestFirstCursor } from '../validation/paging';
import { distinctNumbers, RosterEntry } from '../common/roster';
import { rosterHash } from './roster-hash';
import { ResultRow } from './roster-csv';

// What a create or retry answers: the first page of items.
const FIRST_PAGE: PageRequest<number> = { limit: 1000, after: null };

function summaryView(batch: StoredBatch, counts: BatchCounts, mode: KeyMode): BatchSummaryView {
  return {
    id: batch.id,
    status: batch.status,
    createdAt: batch.createdAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
    total: batch.total,
    counts,
    mode,
  };
}

/**
 * Roster checks, for the controller: creates and retries batches (charging their numbers all or
 * nothing), waits up to VERIFY_TIMEOUT_MS for them, and renders them. The lookups go through
 * BatchDispatch; BatchSettlement writes their results; the SQL is BatchRepository's.
 */
@Injectable()
export class BatchesService {
  constructor(
    private readonly repository: BatchRepository,
    private readonly dispatch: BatchDispatch,
    private readonly settlement: BatchSettlement,
    private readonly quota: QuotaService,
    private readonly clock: Clock,
    private readonly holderData: HolderDataProtection,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates a batch: charges its distinct new numbers all or nothing, answers cached numbers at
   * once, enqueues the rest, and waits up to VERIFY_TIMEOUT_MS for every item to be final.
   */
  async create(user: AuthenticatedUser, entries: RosterEntry[], requestId: string, idempotencyKey?: string): Promise<BatchView> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    const requestHash = rosterHash(entries, (dateOfBirth) => this.holderData.digest(dateOfBirth));
    if (idempotencyKey !== undefined) {
      const existing = await this.repository.findByKey(user.userId, idempotencyKey);
      if (existing) return this.replay(user, existing, requestHash, deadline);
    }
    const numbers = distinctNumbers(entries);
    const release = await this.dispatch.admit(user.userId, numbers);
    // Chosen before the insert, so that each row's date of birth is sealed for that very row.
    const batchId = randomUUID();
    try {
      const charges = await this.quota.chargeMany(user, numbers);
      try {
        const rows = entries.map((entry, position) => ({
          entry,
          dateOfBirthSealed:
            entry.holder?.dateOfBirth === undefined
              ? null
              : this.holderData.seal(entry.holder.dateOfBirth, holderDataRow.batchItem(batchId, batchItemIndex(position))),
        }));
        await this.repository.insert(
          batchId,
          { userId: user.userId, keyId: user.keyId, memberId: user.memberId ?? null, requestId },
          rows,
          idempotencyKey ?? null,
          requestHash,
          this.clock.now(),
        );
      } catch (error) {
        for (const charge of charges) await this.quota.refund(charge);
        if (idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
        // The same key sent twice at once: the other request made the batch.
        const existing = await this.repository.findByKey(user.userId, idempotencyKey);
        if (!existing) throw error;
        return this.replay(user, existing, requestHash, deadline);
      }
      await this.start(user.userId, batchId, numbers, charges);
    } finally {
      await release();
    }
    return this.awaitBatch(user, batchId, deadline);
  }

  /** Looks up again the items that ended in ERROR; their numbers are charged again, and refunded if they fail again. */
  async retry(user: AuthenticatedUser, batchId: string): Promise<BatchView> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    await this.findBatch(user.userId, batchId);
    const numbers = await this.repository.failedNumbers(batchId);
    if (numbers.length > 0) {
      const release = await this.dispatch.admit(user.userId, numbers);
      try {
        const charges = await this.quota.chargeMany(user, numbers);
        await this.repository.reopenFailed(batchId);
        await this.start(user.userId, batchId, numbers, charges);
      } finally {
        await release();
      }
    }
    return this.awaitBatch(user, batchId, deadline);
  }

  /** One page of a batch with its counts; a running batch is reconciled against the queue now and then. */
  async view({ userId, mode }: DataOwner, batchId: string, page: PageRequest<number>): Promise<BatchView> {
    const batch = await this.findBatch(userId, batchId);
    if (batch.status === 'RUNNING' && (await this.settlement.reconcileIfDue(userId, batchId))) {
      return this.render(await this.findBatch(userId, batchId), page, mode);
    }
    return this.render(batch, page, mode);
  }

  async list({ userId, mode }: DataOwner, page: PageRequest<NewestFirstCursor>): Promise<{ batches: BatchSummaryView[]; nextCursor: string | null }> {
    const rows = await this.repository.listPage(userId, page);
    const shown = rows.slice(0, page.limit);
    const counts = await this.repository.counts(shown.map((batch) => batch.id));
    const batches = shown.map((batch) => summaryView(batch, counts.get(batch.id)!, mode));
    const last = shown.at(-1);
    const nextCursor = rows.length > page.limit && last ? writeNewestFirstCursor({ at: last.createdAt.toISOString(), id: last.id }) : null;
    return { batches, nextCursor };
  }

  /** Every item of a batch, in order, for the CSV download. */
  async resultRows(userId: string, batchId: string): Promise<ResultRow[]> {
    await this.findBatch(userId, batchId);
    const items = await this.repository.items(batchId, { limit: Number.MAX_SAFE_INTEGER, after: null });
    return items.map(({ reference, licenceNumber, status, errorCode, licence, checkedAt, holderCheck, verificationId }) => ({
      reference,
      licenceNumber,
      status,
      errorCode,
      licence,
      checkedAt,
      holderCheck: holderCheck ?? null,
      verificationId,
    }));
  }

  /** Dispatches the numbers, then catches lookups that finished before their job id was written. */
  private async start(userId: string, batchId: string, numbers: string[], charges: Charge[]): Promise<void> {
    await this.dispatch.dispatch(userId, batchId, numbers, charges);
    await this.settlement.reconcile(userId, batchId);
  }

  private replay(owner: DataOwner, existing: StoredBatch, requestHash: string, deadline: number): Promise<BatchView> {
    if (existing.requestHash !== requestHash) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.batchIdempotencyKeyReused);
    return this.awaitBatch(owner, existing.id, deadline);
  }

  /** Another user's batch is as unknown as a batch that never was. */
  private async findBatch(userId: string, batchId: string): Promise<StoredBatch> {
    if (!isBatchId(batchId)) throw new ApiError('BATCH_NOT_FOUND');
    const batch = await this.repository.findOwned(userId, batchId);
    if (!batch) throw new ApiError('BATCH_NOT_FOUND');
    return batch;
  }

  /** Waits until the batch has no pending item or the deadline passes, then renders its first page. */
  private async awaitBatch({ userId, mode }: DataOwner, batchId: string, deadline: number): Promise<BatchView> {
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        stopListening();
        resolve();
      };
      const timer = setTimeout(finish, Math.max(deadline - Date.now(), 0));
      const stopListening = this.settlement.onCompleted(batchId, finish);
      // Completed before we listened: no event will come.
      this.findBatch(userId, batchId).then((batch) => batch.status === 'COMPLETED' && finish(), finish);
    });
    return this.render(await this.findBatch(userId, batchId), FIRST_PAGE, mode);
  }

  private async render(batch: StoredBatch, page: PageRequest<number>, mode: KeyMode): Promise<BatchView> {
    const counts = await this.repository.counts([batch.id]);
    const rows = await this.repository.items(batch.id, { limit: page.limit + 1, after: page.after });
    const items = rows.slice(0, page.limit);
    const nextCursor = rows.length > page.limit ? String(items[items.length - 1].index) : null;
    return { ...summaryView(batch, counts.get(batch.id)!, mode), items, nextCursor };
  }
}
