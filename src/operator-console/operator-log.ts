import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ActivityChanges } from '../activity/activity-chain';
import { userName } from '../auth/users-sql';
import type { NewestFirstCursor, PageRequest } from '../validation/paging';
import type { OperatorActor } from './operator-actor';

/** What the operators' log says of a change: the account's action, or the partner's deletion, which no account keeps. */
export type OperatorAction =
  'account.quota_changed' | 'account.limits_changed' | 'account.disabled' | 'account.enabled' | 'account.deleted' | 'key.created' | 'key.revoked';

export interface OperatorLogEntry {
  action: OperatorAction;
  userId: string;
  target: { type: string; id: string };
  changes?: ActivityChanges;
}

/** One line of the operators' log, as the Operator activity page shows it. */
export interface OperatorLogLine {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string };
  source: string | null;
  action: OperatorAction;
  userId: string;
  partnerName: string | null;
  target: { type: string; id: string };
  reason: string | null;
  changes: ActivityChanges;
}

const LINE_COLUMNS = `id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  json_build_object('type', actor_type, 'id', actor_id) AS actor, source, action, user_id AS "userId", partner_name AS "partnerName",
  json_build_object('type', target_type, 'id', target_id) AS target, reason, changes`;

/** The operators' log: every statement on operator_actions. An entry is written in the change's own transaction. */
@Injectable()
export class OperatorLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes an entry, with the partner's name as it is now (read in the same statement) or, for a partner already
   * gone, as it was: the entry names the partner after a deletion too.
   */
  async append(
    actor: OperatorActor,
    reason: string | null,
    entry: OperatorLogEntry,
    manager: EntityManager = this.dataSource.manager,
    formerName: string | null = null,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO operator_actions (actor_type, actor_id, source, action, user_id, partner_name, target_type, target_id, reason, changes)
       VALUES ($1, $2, $3, $4, $5, COALESCE(${userName('$5::uuid')}, $10), $6, $7, $8, $9)`,
      [
        actor.type,
        actor.id,
        actor.source,
        entry.action,
        entry.userId,
        entry.target.type,
        entry.target.id,
        reason,
        JSON.stringify(entry.changes ?? {}),
        formerName,
      ],
    );
  }

  /** The partner's name, null when there is no such partner. */
  async partnerName(userId: string): Promise<string | null> {
    const [row] = await this.dataSource.query<{ name: string | null }[]>(`SELECT ${userName('$1::uuid')} AS name`, [userId]);
    return row.name;
  }

  /** Newest first, after the cursor, of one partner or of all: up to limit + 1, so that the caller knows whether more follow. */
  page(userId: string | null, page: PageRequest<NewestFirstCursor>): Promise<OperatorLogLine[]> {
    return this.dataSource.query<OperatorLogLine[]>(
      `SELECT ${LINE_COLUMNS} FROM operator_actions
        WHERE ($1::uuid IS NULL OR user_id = $1) AND ($2::timestamptz IS NULL OR (occurred_at, id) < ($2::timestamptz, $3::uuid))
        ORDER BY occurred_at DESC, id DESC LIMIT $4`,
      [userId, page.after?.at ?? null, page.after?.id ?? null, page.limit + 1],
    );
  }
}
