import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { NewestFirstCursor, PageRequest } from '../validation/paging';
import type { RecordOwners } from './record-owners';
import { completeRecord, VerificationRecord } from './verification-record';

/** What the history is filtered by; null: no filter. `from` is inclusive, `to` exclusive (answeredAt). */
export interface RecordFilters {
  licenceNumber: string | null;
  from: string | null;
  to: string | null;
  status: string | null;
  channel: string | null;
  memberId: string | null;
}

/** Every statement on verification_records. */
@Injectable()
export class EvidenceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes records drained from Redis; one already written (a drain that ran twice) is left as it is, and one of a
   * user that no longer exists is dropped, in a transaction that holds the users' rows: delete-user waits for it, or
   * it for delete-user, so that no record arrives after the deletion.
   */
  async insertMany(records: readonly VerificationRecord[], owners: RecordOwners): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const existing = new Set(await owners.existingUsers(manager, [...new Set(records.map((record) => record.userId))]));
      await manager.query(
        `INSERT INTO verification_records (verification_id, user_id, answered_at, licence_number, status, channel, record)
         SELECT (r ->> 'verificationId')::uuid, (r ->> 'userId')::uuid, (r ->> 'answeredAt')::timestamptz, r ->> 'licenceNumber',
                r ->> 'status', r ->> 'channel', r
         FROM json_array_elements($1::json) AS r
         ON CONFLICT (verification_id) DO NOTHING`,
        [JSON.stringify(records.filter((record) => existing.has(record.userId)))],
      );
    });
  }

  /** The user's records, newest first, after the cursor: up to limit + 1, so that the caller knows whether more follow. */
  async listPage(userId: string, filters: RecordFilters, page: PageRequest<NewestFirstCursor>): Promise<VerificationRecord[]> {
    const rows = await this.dataSource.query<{ record: VerificationRecord }[]>(
      `SELECT record FROM verification_records
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (answered_at, verification_id) < ($2::timestamptz, $3::uuid))
         AND ($4::text IS NULL OR licence_number = $4) AND ($5::timestamptz IS NULL OR answered_at >= $5)
         AND ($6::timestamptz IS NULL OR answered_at < $6) AND ($7::text IS NULL OR status = $7) AND ($8::text IS NULL OR channel = $8)
         AND ($10::text IS NULL OR record->>'memberId' = $10)
       ORDER BY answered_at DESC, verification_id DESC LIMIT $9`,
      [
        userId,
        page.after?.at ?? null,
        page.after?.id ?? null,
        filters.licenceNumber,
        filters.from,
        filters.to,
        filters.status,
        filters.channel,
        page.limit + 1,
        filters.memberId,
      ],
    );
    return rows.map((row) => completeRecord(row.record));
  }

  /** The user's record; another user's is as unknown as one that never was. */
  async findOwned(userId: string, verificationId: string): Promise<VerificationRecord | undefined> {
    const rows = await this.dataSource.query<{ record: VerificationRecord }[]>(
      `SELECT record FROM verification_records WHERE verification_id = $1 AND user_id = $2`,
      [verificationId, userId],
    );
    return rows[0] && completeRecord(rows[0].record);
  }

  /**
   * One page of the user's records of a period, oldest first, after the cursor (keyset): an export reads page by page
   * and holds no connection between pages, so that a client reading slowly holds none at all.
   */
  async periodPage(
    userId: string,
    filters: Pick<RecordFilters, 'from' | 'to'>,
    after: NewestFirstCursor | null,
    limit: number,
  ): Promise<VerificationRecord[]> {
    const rows = await this.dataSource.query<{ record: VerificationRecord }[]>(
      `SELECT record FROM verification_records
       WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (answered_at, verification_id) > ($2::timestamptz, $3::uuid))
         AND ($4::timestamptz IS NULL OR answered_at >= $4) AND ($5::timestamptz IS NULL OR answered_at < $5)
       ORDER BY answered_at, verification_id LIMIT $6`,
      [userId, after?.at ?? null, after?.id ?? null, filters.from, filters.to, limit],
    );
    return rows.map((row) => completeRecord(row.record));
  }

  /** Deletes the records answered before `cutoff`; returns how many. */
  async deleteAnsweredBefore(cutoff: Date): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown[], number]>('DELETE FROM verification_records WHERE answered_at < $1', [cutoff]);
    return deleted;
  }

  /** The users' records, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ verificationRecords: number }> {
    const [counts] = await manager.query<{ verificationRecords: number }[]>(
      'SELECT count(*)::int AS "verificationRecords" FROM verification_records WHERE user_id = ANY ($1)',
      [userIds],
    );
    return counts;
  }

  /** Records name their user but do not hang on the users row (they are written from a stream that may outlive it). */
  async deleteUserRows(manager: EntityManager, userIds: string[]): Promise<void> {
    await manager.query('DELETE FROM verification_records WHERE user_id = ANY ($1)', [userIds]);
  }
}
