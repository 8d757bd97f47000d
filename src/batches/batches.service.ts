import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, VALIDATION_MESSAGES } from '../errors/error-codes';
import { Charge, QuotaService } from '../quota/quota.service';
import { LookupAdmission } from '../verification/lookup-admission';
import { LookupPayers } from '../verification/lookup-payers';
import { LookupSettlement } from '../verification/lookup-settlement';
import { LookupQueue, LookupStanding } from '../verification/lookup-queue';
import { ResultCache } from '../verification/result-cache';
import { LOOKUP_PRIORITY } from '../verification/verification.queue';
import { BatchItemStatus } from './batch-item.entity';
import { BatchStatus } from './batch.entity';
import {
  BatchesCursor,
  BatchItemView,
  BatchSummaryView,
  BatchView,
  countsOf,
  isBatchId,
  itemResult,
  writeBatchesCursor,
} from './batch-view';
import type { PageRequest } from '../common/paging';
import { distinctNumbers, RosterEntry, rosterHash } from './roster';
import { ResultRow } from './roster-csv';

// Enough parallel Redis and PostgreSQL round trips to dispatch 1,000 numbers quickly, few enough to share the pools.
const DISPATCH_CONCURRENCY = 16;
// GET reconciles a running batch against the queue at most this often, per API process.
const RECONCILE_INTERVAL_MS = 10_000;

interface BatchRow {
  id: string;
  status: BatchStatus;
  total: number;
  request_hash: string;
  created_at: Date;
  completed_at: Date | null;
}

interface ItemRow {
  index: number;
  licence_number: string;
  reference: string | null;
  status: BatchItemStatus;
  error_code: string | null;
  licence: BatchItemView['licence'];
  checked_at: Date | null;
}

/** Runs `task` for every value with at most `limit` running at once. */
async function forEachLimited<T>(values: T[], limit: number, task: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < values.length) await task(values[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, lane));
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Roster checks. Items go through the one lookup queue at batch priority, so they share single
 * flight, the cache and the register's rate limit with live verifications. Results are written
 * to PostgreSQL as lookups finish (the API hears every finished job through LookupQueue), and a
 * reconciliation against the queue and the cache catches whatever a crash let pass unheard.
 */
@Injectable()
export class BatchesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Batches');
  /** emits a batch's id when this process sees it has no pending item left */
  private readonly completions = new EventEmitter();
  private readonly lastReconciled = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quota: QuotaService,
    private readonly lookups: LookupQueue,
    private readonly payers: LookupPayers,
    private readonly settlement: LookupSettlement,
    private readonly cache: ResultCache,
    private readonly admission: LookupAdmission,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.completions.setMaxListeners(0);
    this.lookups.onLookupFinished((jobId) => {
      this.settleJob(jobId).catch((error: unknown) =>
        this.logger.error(`Writing the results of lookup ${jobId} failed: ${(error as Error).message}`),
      );
    });
  }

  /** Lookups may have finished while no API process listened: settle every running batch once. */
  onApplicationBootstrap(): void {
    this.reconcileRunning().catch((error: unknown) =>
      this.logger.error(`Reconciling running batches failed: ${(error as Error).message}`),
    );
  }

  /**
   * Creates a batch: charges its distinct new numbers all or nothing, answers cached numbers at
   * once, enqueues the rest, and waits up to VERIFY_TIMEOUT_MS for every item to be final.
   */
  async create(user: AuthenticatedUser, entries: RosterEntry[], idempotencyKey?: string): Promise<BatchView> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    const requestHash = rosterHash(entries);
    if (idempotencyKey !== undefined) {
      const existing = await this.findByKey(user.userId, idempotencyKey);
      if (existing) return this.replay(user.userId, existing, requestHash, deadline);
    }
    const numbers = distinctNumbers(entries);
    await this.admitLookups(numbers);
    const charges = await this.quota.chargeMany(user, numbers);
    let batchId: string;
    try {
      batchId = await this.insert(user.userId, entries, idempotencyKey ?? null, requestHash);
    } catch (error) {
      for (const charge of charges) await this.quota.refund(charge);
      if (idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
      // The same key sent twice at once: the other request made the batch.
      const existing = await this.findByKey(user.userId, idempotencyKey);
      if (!existing) throw error;
      return this.replay(user.userId, existing, requestHash, deadline);
    }
    await this.dispatch(batchId, numbers, charges);
    return this.awaitBatch(user.userId, batchId, deadline);
  }

  /** Looks up again the items that ended in ERROR; their numbers are charged again, and refunded if they fail again. */
  async retry(user: AuthenticatedUser, batchId: string): Promise<BatchView> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    await this.findBatch(user.userId, batchId);
    const rows = await this.dataSource.query<{ licence_number: string }[]>(
      `SELECT DISTINCT licence_number FROM batch_items WHERE batch_id = $1 AND status = 'ERROR'`,
      [batchId],
    );
    const numbers = rows.map((row) => row.licence_number).sort();
    if (numbers.length > 0) {
      await this.admitLookups(numbers);
      const charges = await this.quota.chargeMany(user, numbers);
      await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `UPDATE batch_items SET status = 'PENDING', error_code = NULL, job_id = NULL WHERE batch_id = $1 AND status = 'ERROR'`,
          [batchId],
        );
        await manager.query(`UPDATE batches SET status = 'RUNNING', completed_at = NULL WHERE id = $1`, [batchId]);
      });
      await this.dispatch(batchId, numbers, charges);
    }
    return this.awaitBatch(user.userId, batchId, deadline);
  }

  /**
   * A batch that needs any new lookup is refused like a single verification while the queue is full or the
   * register breaker is open: 503 before anything is charged or created. One answered from the cache is served.
   */
  private async admitLookups(numbers: string[]): Promise<void> {
    if (await this.cache.anyMissing(numbers)) await this.admission.admit();
  }

  /** One page of a batch with its counts; a running batch is reconciled against the queue now and then. */
  async view(userId: string, batchId: string, page: PageRequest<number>): Promise<BatchView> {
    const batch = await this.findBatch(userId, batchId);
    if (batch.status === 'RUNNING' && Date.now() - (this.lastReconciled.get(batchId) ?? 0) > RECONCILE_INTERVAL_MS) {
      await this.reconcile(batchId);
      return this.render(await this.findBatch(userId, batchId), page);
    }
    return this.render(batch, page);
  }

  async list(userId: string, page: PageRequest<BatchesCursor>): Promise<{ batches: BatchSummaryView[]; nextCursor: string | null }> {
    const rows = await this.dataSource.query<BatchRow[]>(
      `SELECT id, status, total, request_hash, created_at, completed_at FROM batches
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
    );
    const shown = rows.slice(0, page.limit);
    const counts = await this.dataSource.query<{ batch_id: string; status: string; count: string }[]>(
      `SELECT batch_id, status, count(*) AS count FROM batch_items WHERE batch_id = ANY ($1::uuid[]) GROUP BY batch_id, status`,
      [shown.map((row) => row.id)],
    );
    const batches = shown.map((row) => this.summary(row, counts.filter((count) => count.batch_id === row.id)));
    const last = shown.at(-1);
    const nextCursor =
      rows.length > page.limit && last ? writeBatchesCursor({ createdAt: last.created_at.toISOString(), id: last.id }) : null;
    return { batches, nextCursor };
  }

  /** Every item of a batch, in order, for the CSV download. */
  async resultRows(userId: string, batchId: string): Promise<ResultRow[]> {
    await this.findBatch(userId, batchId);
    const items = await this.itemRows(batchId, { limit: Number.MAX_SAFE_INTEGER, after: null });
    return items.map((item) => {
      const { reference, licenceNumber, status, errorCode, licence, checkedAt } = this.itemView(item);
      return { reference, licenceNumber, status, errorCode, licence, checkedAt };
    });
  }

  private async findByKey(userId: string, idempotencyKey: string): Promise<BatchRow | undefined> {
    const rows = await this.dataSource.query<BatchRow[]>(
      `SELECT id, status, total, request_hash, created_at, completed_at FROM batches WHERE user_id = $1 AND idempotency_key = $2`,
      [userId, idempotencyKey],
    );
    return rows[0];
  }

  private replay(userId: string, existing: BatchRow, requestHash: string, deadline: number): Promise<BatchView> {
    if (existing.request_hash !== requestHash) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.batchIdempotencyKeyReused);
    return this.awaitBatch(userId, existing.id, deadline);
  }

  /** Another user's batch is as unknown as a batch that never was. */
  private async findBatch(userId: string, batchId: string): Promise<BatchRow> {
    if (!isBatchId(batchId)) throw new ApiError('BATCH_NOT_FOUND');
    const rows = await this.dataSource.query<BatchRow[]>(
      `SELECT id, status, total, request_hash, created_at, completed_at FROM batches WHERE id = $1 AND user_id = $2`,
      [batchId, userId],
    );
    if (!rows[0]) throw new ApiError('BATCH_NOT_FOUND');
    return rows[0];
  }

  private async insert(userId: string, entries: RosterEntry[], idempotencyKey: string | null, requestHash: string): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query<{ id: string }[]>(
        `INSERT INTO batches (user_id, status, total, idempotency_key, request_hash, created_at)
         VALUES ($1, 'RUNNING', $2, $3, $4, $5) RETURNING id`,
        [userId, entries.length, idempotencyKey, requestHash, this.clock.now()],
      );
      await manager.query(
        `INSERT INTO batch_items (batch_id, index, licence_number, reference, status)
         SELECT $1, ordinality, number, reference, 'PENDING'
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS rows (number, reference, ordinality)`,
        [id, entries.map((entry) => entry.licenceNumber), entries.map((entry) => entry.reference)],
      );
      return id;
    });
  }

  /**
   * Answers each number from the cache or enqueues its lookup (a new charge waits on the job as
   * its payer, refunded if the lookup fails), then catches lookups that finished before their
   * job id was written.
   */
  private async dispatch(batchId: string, numbers: string[], charges: Charge[]): Promise<void> {
    const newCharges = new Map(charges.map((charge) => [charge.licenceNumber, charge]));
    await forEachLimited(numbers, DISPATCH_CONCURRENCY, async (licenceNumber) => {
      const cached = await this.cache.get(licenceNumber);
      if (cached) {
        await this.settleNumber(batchId, licenceNumber, { state: 'completed', result: cached });
        return;
      }
      const jobId = await this.lookups.enqueue(licenceNumber, LOOKUP_PRIORITY.batchItem);
      const charge = newCharges.get(licenceNumber);
      if (charge) await this.payers.add(jobId, charge);
      await this.dataSource.query(
        `UPDATE batch_items SET job_id = $3 WHERE batch_id = $1 AND licence_number = $2 AND status = 'PENDING'`,
        [batchId, licenceNumber, jobId],
      );
    });
    await this.reconcile(batchId);
  }

  /** Writes the result of a finished lookup into every pending item waiting on it. */
  private async settleJob(jobId: string): Promise<void> {
    const waiting = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM batch_items WHERE job_id = $1 AND status = 'PENDING' LIMIT 1`,
      [jobId],
    );
    if (waiting.length === 0) return; // most finished lookups are live verifications
    const standing = await this.lookups.standing(jobId);
    if (standing.state !== 'completed' && standing.state !== 'failed') return;
    const result = itemResult(standing);
    // An UPDATE answers [rows, count].
    const [settled] = await this.dataSource.query<[{ batch_id: string }[], number]>(
      `UPDATE batch_items SET status = $2, error_code = $3, licence = $4, checked_at = $5
       WHERE job_id = $1 AND status = 'PENDING' RETURNING batch_id`,
      [jobId, result.status, result.errorCode, result.licence, result.checkedAt],
    );
    for (const batchId of new Set(settled.map((row) => row.batch_id))) await this.completeIfDone(batchId);
  }

  private async settleNumber(batchId: string, licenceNumber: string, outcome: Exclude<LookupStanding, { state: 'pending' | 'missing' }>): Promise<void> {
    const result = itemResult(outcome);
    await this.dataSource.query(
      `UPDATE batch_items SET status = $3, error_code = $4, licence = $5, checked_at = $6
       WHERE batch_id = $1 AND licence_number = $2 AND status = 'PENDING'`,
      [batchId, licenceNumber, result.status, result.errorCode, result.licence, result.checkedAt],
    );
  }

  /** Marks the batch COMPLETED once no item is pending, and tells whoever waits here. */
  private async completeIfDone(batchId: string): Promise<void> {
    const [{ done }] = await this.dataSource.query<{ done: boolean }[]>(
      `WITH state AS (SELECT NOT EXISTS (SELECT 1 FROM batch_items WHERE batch_id = $1 AND status = 'PENDING') AS done),
            completed AS (UPDATE batches SET status = 'COMPLETED', completed_at = $2 FROM state
                          WHERE id = $1 AND status = 'RUNNING' AND state.done RETURNING id)
       SELECT done FROM state`,
      [batchId, this.clock.now()],
    );
    if (!done) return;
    this.lastReconciled.delete(batchId);
    this.completions.emit(batchId);
  }

  /**
   * Resolves a batch's pending items from the queue's record of their jobs, or from the cache when
   * the job is gone; a number with neither is enqueued again. A failed job found here is refunded
   * through its payers, which only one process can take.
   */
  private async reconcile(batchId: string): Promise<void> {
    this.lastReconciled.set(batchId, Date.now());
    const pending = await this.dataSource.query<{ licence_number: string; job_id: string | null }[]>(
      `SELECT DISTINCT licence_number, job_id FROM batch_items WHERE batch_id = $1 AND status = 'PENDING'`,
      [batchId],
    );
    await forEachLimited(pending, DISPATCH_CONCURRENCY, async ({ licence_number: licenceNumber, job_id: jobId }) => {
      const standing: LookupStanding = jobId ? await this.lookups.standing(jobId) : { state: 'missing' };
      if (standing.state === 'pending') return;
      if (standing.state === 'failed' && jobId) {
        await this.settlement.refund(jobId);
      }
      if (standing.state !== 'missing') return this.settleNumber(batchId, licenceNumber, standing);
      const cached = await this.cache.get(licenceNumber);
      if (cached) return this.settleNumber(batchId, licenceNumber, { state: 'completed', result: cached });
      const newJobId = await this.lookups.enqueue(licenceNumber, LOOKUP_PRIORITY.batchItem);
      await this.dataSource.query(
        `UPDATE batch_items SET job_id = $3 WHERE batch_id = $1 AND licence_number = $2 AND status = 'PENDING'`,
        [batchId, licenceNumber, newJobId],
      );
    });
    await this.completeIfDone(batchId);
  }

  private async reconcileRunning(): Promise<void> {
    const running = await this.dataSource.query<{ id: string }[]>(`SELECT id FROM batches WHERE status = 'RUNNING'`);
    for (const { id } of running) await this.reconcile(id);
  }

  /** Waits until the batch has no pending item or the deadline passes, then renders its first page. */
  private async awaitBatch(userId: string, batchId: string, deadline: number): Promise<BatchView> {
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.completions.off(batchId, finish);
        resolve();
      };
      const timer = setTimeout(finish, Math.max(deadline - Date.now(), 0));
      this.completions.on(batchId, finish);
      // Completed before we listened: no event will come.
      this.findBatch(userId, batchId).then((batch) => batch.status === 'COMPLETED' && finish(), finish);
    });
    return this.render(await this.findBatch(userId, batchId), { limit: 1000, after: null });
  }

  private async render(batch: BatchRow, page: PageRequest<number>): Promise<BatchView> {
    const counts = await this.dataSource.query<{ status: string; count: string }[]>(
      `SELECT status, count(*) AS count FROM batch_items WHERE batch_id = $1 GROUP BY status`,
      [batch.id],
    );
    const rows = await this.itemRows(batch.id, { limit: page.limit + 1, after: page.after });
    const items = rows.slice(0, page.limit).map((row) => this.itemView(row));
    const nextCursor = rows.length > page.limit ? String(items[items.length - 1].index) : null;
    return { ...this.summary(batch, counts), items, nextCursor };
  }

  private itemRows(batchId: string, page: PageRequest<number>): Promise<ItemRow[]> {
    return this.dataSource.query<ItemRow[]>(
      `SELECT index, licence_number, reference, status, error_code, licence, checked_at FROM batch_items
       WHERE batch_id = $1 AND index > $2 ORDER BY index LIMIT $3`,
      [batchId, page.after ?? 0, Math.min(page.limit, 1_000_000)],
    );
  }

  private summary(batch: BatchRow, counts: { status: string; count: string }[]): BatchSummaryView {
    return {
      id: batch.id,
      status: batch.status,
      createdAt: batch.created_at.toISOString(),
      completedAt: batch.completed_at?.toISOString() ?? null,
      total: batch.total,
      counts: countsOf(counts),
    };
  }

  private itemView(row: ItemRow): BatchItemView {
    return {
      index: row.index,
      licenceNumber: row.licence_number,
      reference: row.reference,
      status: row.status,
      errorCode: row.error_code,
      licence: row.licence,
      checkedAt: row.checked_at?.toISOString() ?? null,
    };
  }
}
