import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isDisabledUser } from '../auth/users-sql';
import { holderDataRow } from '../secrets/holder-data';
import { sealedDateColumn, SealedDateRows } from '../secrets/holder-data-reseal';
import type { NewestFirstCursor, PageRequest } from '../validation/paging';
import { BatchCounts, BatchItemStatus, BatchItemView, BatchStatus, countsOf, ItemResult } from './batch-view';
import { RosterEntry } from '../common/roster';
import type { RegisterLicence } from '@lvs/register';
import type { HolderCheck } from '../holders/holder-check';
import type { HolderName } from '../holders/match-holder-name';

/** A batch as stored, without its items. */
export interface StoredBatch {
  id: string;
  status: BatchStatus;
  total: number;
  requestHash: string;
  createdAt: Date;
  completedAt: Date | null;
}

/** A pending number of a batch, with the lookup job it waits on (null: none written yet). */
export interface PendingNumber {
  licenceNumber: string;
  jobId: string | null;
}

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
  holder: HolderName | null;
  holder_check: HolderCheck | null;
  verification_id: string | null;
}

/** A found row whose holder is still to be checked. */
export interface UncheckedHolder {
  /** the batch's owner, whose bound of dates of birth and turn the row's search takes */
  userId: string;
  index: number;
  licence: RegisterLicence;
  holder: HolderName;
  dateOfBirthSealed: string | null;
  holderJobId: string | null;
}

/** batch_items.index of the row at `position` (from 0) of a roster: rows count from 1, as the insert's ORDINALITY does. */
export const batchItemIndex = (position: number): number => position + 1;
/** Who made a batch: its rows' verification records name them. */
export interface BatchOrigin {
  userId: string;
  keyId: string | null;
  requestId: string | null;
}

/** What insert stores of each row: its entry, and its date of birth sealed (never the date itself). */
export interface StoredRow {
  entry: RosterEntry;
  dateOfBirthSealed: string | null;
}

// A found row with a holder and no holder check yet keeps its batch running.
const HOLDER_UNCHECKED = `i.status = 'FOUND' AND i.holder IS NOT NULL AND i.holder_check IS NULL`;

const BATCH_COLUMNS = 'id, status, total, request_hash, created_at, completed_at';

/** Whether an INSERT failed on a unique constraint (the same idempotency key sent twice at once). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

function toStoredBatch(row: BatchRow): StoredBatch {
  return {
    id: row.id,
    status: row.status,
    total: row.total,
    requestHash: row.request_hash,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

function toItemView(row: ItemRow): BatchItemView {
  return {
    index: row.index,
    licenceNumber: row.licence_number,
    reference: row.reference,
    status: row.status,
    errorCode: row.error_code,
    licence: row.licence,
    checkedAt: row.checked_at?.toISOString() ?? null,
    verificationId: row.verification_id,
    // Only a row that names a holder has a holder check (null until it is made).
    ...(row.holder === null ? {} : { holderCheck: row.holder_check }),
  };
}

/** Every statement on batches and batch_items. */
@Injectable()
export class BatchRepository {
  /** the batch items' dates of birth, for keys reseal-holder-data */
  readonly sealedDates: SealedDateRows;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sealedDates = sealedDateColumn(dataSource, 'batch_items', ['batch_id', 'index'], ([batchId, index]) =>
      holderDataRow.batchItem(batchId, Number(index)),
    );
  }

  async findByKey(userId: string, idempotencyKey: string): Promise<StoredBatch | undefined> {
    const rows = await this.dataSource.query<BatchRow[]>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE user_id = $1 AND idempotency_key = $2`, [
      userId,
      idempotencyKey,
    ]);
    return rows[0] && toStoredBatch(rows[0]);
  }

  /** The user's batch; another user's is as unknown as one that never was. */
  async findOwned(userId: string, batchId: string): Promise<StoredBatch | undefined> {
    const rows = await this.dataSource.query<BatchRow[]>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = $1 AND user_id = $2`, [batchId, userId]);
    return rows[0] && toStoredBatch(rows[0]);
  }

  /**
   * A running batch (its id chosen by the caller) and its pending items, in one transaction. The key and request
   * that made it go into each row's verification record (written as the row becomes final).
   */
  insert(id: string, origin: BatchOrigin, rows: StoredRow[], idempotencyKey: string | null, requestHash: string, createdAt: Date): Promise<void> {
    const entries = rows.map((row) => row.entry);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO batches (id, user_id, status, total, idempotency_key, request_hash, created_at, key_id, request_id)
         VALUES ($1, $2, 'RUNNING', $3, $4, $5, $6, $7, $8)`,
        [id, origin.userId, entries.length, idempotencyKey, requestHash, createdAt, origin.keyId, origin.requestId],
      );
      await manager.query(
        `INSERT INTO batch_items (batch_id, index, licence_number, reference, status, holder, date_of_birth_sealed)
         SELECT $1, ordinality, number, reference, 'PENDING', holder::jsonb, sealed
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS rows (number, reference, holder, sealed, ordinality)`,
        [
          id,
          entries.map((entry) => entry.licenceNumber),
          entries.map((entry) => entry.reference),
          entries.map(({ holder }) => (holder ? JSON.stringify({ firstName: holder.firstName, surname: holder.surname }) : null)),
          rows.map((row) => row.dateOfBirthSealed),
        ],
      );
    });
  }

  /** The distinct numbers of the batch's items that ended in ERROR, sorted. */
  async failedNumbers(batchId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ licence_number: string }[]>(
      `SELECT DISTINCT licence_number FROM batch_items WHERE batch_id = $1 AND status = 'ERROR'`,
      [batchId],
    );
    return rows.map((row) => row.licence_number).sort();
  }

  /** Makes the ERROR items pending again and the batch running, together. */
  async reopenFailed(batchId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `UPDATE batch_items SET status = 'PENDING', error_code = NULL, job_id = NULL, holder_check = NULL, holder_job_id = NULL
         WHERE batch_id = $1 AND status = 'ERROR'`,
        [batchId],
      );
      await manager.query(`UPDATE batches SET status = 'RUNNING', completed_at = NULL WHERE id = $1`, [batchId]);
    });
  }

  /** Ties the pending items of a number to the lookup job that answers them; answers whether any was still pending. */
  async attachJob(batchId: string, licenceNumber: string, jobId: string): Promise<boolean> {
    const [, attached] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE batch_items SET job_id = $3 WHERE batch_id = $1 AND licence_number = $2 AND status = 'PENDING'`,
      [batchId, licenceNumber, jobId],
    );
    return attached > 0;
  }

  async anyPendingOnJob(jobId: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(`SELECT 1 FROM batch_items WHERE job_id = $1 AND status = 'PENDING' LIMIT 1`, [jobId]);
    return rows.length > 0;
  }

  /** Writes a lookup's result into every pending item waiting on its job; returns the batches touched. */
  async settleJob(jobId: string, result: ItemResult): Promise<string[]> {
    // An UPDATE answers [rows, count].
    const [settled] = await this.dataSource.query<[{ batch_id: string }[], number]>(
      `UPDATE batch_items SET status = $2, error_code = $3, licence = $4, checked_at = $5, answer_source = 'register'
       WHERE job_id = $1 AND status = 'PENDING' RETURNING batch_id`,
      [jobId, result.status, result.errorCode, result.licence, result.checkedAt],
    );
    return [...new Set(settled.map((row) => row.batch_id))];
  }

  /**
   * Writes a result into the batch's pending items of one number. An item that never had a lookup job was
   * answered from the cache; one with a job, by the register through it. Answers whether any was still pending.
   */
  async settleNumber(batchId: string, licenceNumber: string, result: ItemResult): Promise<boolean> {
    const [, settled] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE batch_items SET status = $3, error_code = $4, licence = $5, checked_at = $6,
              answer_source = CASE WHEN job_id IS NULL THEN 'cache' ELSE 'register' END
       WHERE batch_id = $1 AND licence_number = $2 AND status = 'PENDING'`,
      [batchId, licenceNumber, result.status, result.errorCode, result.licence, result.checkedAt],
    );
    return settled > 0;
  }

  /**
   * Whether an item of the batch, of the number or on the job, holds an answer: the charge made for it then stands,
   * whoever wrote the answer and whatever ended the other items.
   */
  async holdsAnswer(batchId: string, on: { licenceNumber: string } | { jobId: string }): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM batch_items WHERE batch_id = $1 AND (licence_number = $2 OR job_id = $3) AND status NOT IN ('PENDING', 'ERROR') LIMIT 1`,
      [batchId, 'licenceNumber' in on ? on.licenceNumber : null, 'jobId' in on ? on.jobId : null],
    );
    return rows.length > 0;
  }

  /** Marks the batch COMPLETED at `now` if no item is pending; answers whether none is, and whether this call completed it. */
  async completeIfDone(batchId: string, now: Date): Promise<{ done: boolean; completedHere: boolean }> {
    const [row] = await this.dataSource.query<{ done: boolean; completed_here: boolean }[]>(
      `WITH state AS (SELECT NOT EXISTS (SELECT 1 FROM batch_items i WHERE i.batch_id = $1 AND (i.status = 'PENDING' OR ${HOLDER_UNCHECKED})) AS done),
            completed AS (UPDATE batches SET status = 'COMPLETED', completed_at = $2 FROM state
                          WHERE id = $1 AND status = 'RUNNING' AND state.done RETURNING id)
       SELECT done, EXISTS (SELECT 1 FROM completed) AS completed_here FROM state`,
      [batchId, now],
    );
    return { done: row.done, completedHere: row.completed_here };
  }

  /** The batch's found rows whose holder check is still to be made. */
  async uncheckedHolders(batchId: string): Promise<UncheckedHolder[]> {
    const rows = await this.dataSource.query<
      { user_id: string; index: number; licence: RegisterLicence; holder: HolderName; date_of_birth_sealed: string | null; holder_job_id: string | null }[]
    >(
      `SELECT b.user_id, i.index, i.licence, i.holder, i.date_of_birth_sealed, i.holder_job_id
       FROM batch_items i JOIN batches b ON b.id = i.batch_id
       WHERE i.batch_id = $1 AND ${HOLDER_UNCHECKED} ORDER BY i.index`,
      [batchId],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      index: row.index,
      licence: row.licence,
      holder: row.holder,
      dateOfBirthSealed: row.date_of_birth_sealed,
      holderJobId: row.holder_job_id,
    }));
  }

  async writeHolderCheck(batchId: string, index: number, check: HolderCheck): Promise<void> {
    await this.dataSource.query(`UPDATE batch_items SET holder_check = $3, holder_job_id = NULL WHERE batch_id = $1 AND index = $2`, [
      batchId,
      index,
      check,
    ]);
  }

  /** The row's date-of-birth search failed for good: the row is an ERROR, to be retried like a failed lookup. */
  async failHolderCheck(batchId: string, index: number, errorCode: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE batch_items SET status = 'ERROR', error_code = $3, licence = NULL, checked_at = NULL, holder_job_id = NULL
       WHERE batch_id = $1 AND index = $2`,
      [batchId, index, errorCode],
    );
  }

  async attachHolderJob(batchId: string, index: number, jobId: string): Promise<void> {
    await this.dataSource.query(`UPDATE batch_items SET holder_job_id = $3 WHERE batch_id = $1 AND index = $2`, [batchId, index, jobId]);
  }

  /** The batches with a holder check waiting on this name search. */
  async batchesOnHolderJob(jobId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ batch_id: string }[]>(
      `SELECT DISTINCT i.batch_id FROM batch_items i WHERE i.holder_job_id = $1 AND ${HOLDER_UNCHECKED}`,
      [jobId],
    );
    return rows.map((row) => row.batch_id);
  }

  async pendingNumbers(batchId: string): Promise<PendingNumber[]> {
    const rows = await this.dataSource.query<{ licence_number: string; job_id: string | null }[]>(
      `SELECT DISTINCT licence_number, job_id FROM batch_items WHERE batch_id = $1 AND status = 'PENDING'`,
      [batchId],
    );
    return rows.map((row) => ({ licenceNumber: row.licence_number, jobId: row.job_id }));
  }

  /** The running batches with their owners (whose turn a re-enqueued lookup takes). */
  /** Running batches whose owner is disabled: BatchSettlement stops them. */
  async runningOfDisabledUsers(): Promise<{ id: string; userId: string }[]> {
    const rows = await this.dataSource.query<{ id: string; user_id: string }[]>(
      `SELECT b.id, b.user_id FROM batches b WHERE b.status = 'RUNNING' AND ${isDisabledUser('b.user_id')}`,
    );
    return rows.map((row) => ({ id: row.id, userId: row.user_id }));
  }

  /** The lookup jobs the batch's pending items wait on. */
  async pendingJobs(batchId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ job_id: string }[]>(
      `SELECT DISTINCT job_id FROM batch_items WHERE batch_id = $1 AND status = 'PENDING' AND job_id IS NOT NULL`,
      [batchId],
    );
    return rows.map((row) => row.job_id);
  }

  /**
   * Ends items still waiting as an ERROR with `errorCode` (POST …/retry looks them up again): those waiting on job
   * `jobId` when given, else those whose lookup has no job yet and those waiting for their holder check. An item
   * waiting on a job is ended only by the job's id, so that the charges waiting on that job are withdrawn first.
   */
  async failWaiting(batchId: string, errorCode: string, jobId: string | null = null): Promise<void> {
    await this.dataSource.query(
      `UPDATE batch_items i SET status = 'ERROR', error_code = $2, licence = NULL, checked_at = NULL, holder_job_id = NULL
       WHERE i.batch_id = $1 AND CASE WHEN $3::text IS NULL THEN (i.status = 'PENDING' AND i.job_id IS NULL) OR ${HOLDER_UNCHECKED} ELSE i.status = 'PENDING' AND i.job_id = $3 END`,
      [batchId, errorCode, jobId],
    );
  }

  async running(): Promise<{ id: string; userId: string }[]> {
    const rows = await this.dataSource.query<{ id: string; user_id: string }[]>(`SELECT id, user_id FROM batches WHERE status = 'RUNNING'`);
    return rows.map((row) => ({ id: row.id, userId: row.user_id }));
  }

  /** The user's batches, newest first, after the cursor: up to limit + 1, so that the caller knows whether more follow. */
  async listPage(userId: string, page: PageRequest<NewestFirstCursor>): Promise<StoredBatch[]> {
    const rows = await this.dataSource.query<BatchRow[]>(
      `SELECT ${BATCH_COLUMNS} FROM batches
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [userId, page.after?.at ?? null, page.after?.id ?? null, page.limit + 1],
    );
    return rows.map(toStoredBatch);
  }

  /** Each batch's item counts per status, in one query. */
  async counts(batchIds: string[]): Promise<Map<string, BatchCounts>> {
    const rows = await this.dataSource.query<{ batch_id: string; status: string; count: string }[]>(
      `SELECT batch_id, status, count(*) AS count FROM batch_items WHERE batch_id = ANY ($1::uuid[]) GROUP BY batch_id, status`,
      [batchIds],
    );
    return new Map(batchIds.map((id) => [id, countsOf(rows.filter((row) => row.batch_id === id))]));
  }

  /** The batch's items in order, after the index `page.after`, up to `page.limit`. */
  async items(batchId: string, page: PageRequest<number>): Promise<BatchItemView[]> {
    const rows = await this.dataSource.query<ItemRow[]>(
      `SELECT index, licence_number, reference, status, error_code, licence, checked_at, holder, holder_check, verification_id FROM batch_items
       WHERE batch_id = $1 AND index > $2 ORDER BY index LIMIT $3`,
      [batchId, page.after ?? 0, Math.min(page.limit, 1_000_000)],
    );
    return rows.map(toItemView);
  }

  /** Deletes the batches (their items go with them) created before `cutoff`; returns how many. */
  async deleteCreatedBefore(cutoff: Date): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown[], number]>('DELETE FROM batches WHERE created_at < $1', [cutoff]);
    return deleted;
  }

  /** The users' batches and their items, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ batches: number; batchItems: number }> {
    const [counts] = await manager.query<{ batches: number; batchItems: number }[]>(
      `SELECT (SELECT count(*)::int FROM batches WHERE user_id = ANY ($1)) AS "batches",
              (SELECT count(*)::int FROM batch_items i JOIN batches b ON b.id = i.batch_id WHERE b.user_id = ANY ($1)) AS "batchItems"`,
      [userIds],
    );
    return counts;
  }
}
