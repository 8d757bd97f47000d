import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ActivityChanges } from '../activity/activity-chain';
import { userName } from '../auth/users-sql';
import type { NewestFirstCursor, PageRequest } from '../validation/paging';
import type { OperatorActor } from './operator-actor';

/**
 * What the operators' log says of a change: the account's action, or the partner's creation (whose account logs its
 * first owner's invitation) or deletion (which no account keeps); or a change of the operators themselves: invited by
 * the admin command, made by single sign-on at their first sign-in, disabled, enabled, given another role, removed,
 * and a passkey added to or removed from their own account.
 */
export type OperatorAction =
  | 'account.created'
  | 'account.quota_changed'
  | 'account.limits_changed'
  | 'account.disabled'
  | 'account.enabled'
  | 'account.deleted'
  | 'key.created'
  | 'key.revoked'
  | 'member.factor_reset'
  | 'operator.invited'
  | 'operator.created_by_sso'
  | 'operator.disabled'
  | 'operator.enabled'
  | 'operator.role_changed'
  | 'operator.removed'
  | 'operator.factor_added'
  | 'operator.factor_removed';

export interface OperatorLogEntry {
  action: OperatorAction;
  /** null: a partner already deleted (its entries name it by partnerRef) */
  userId: string | null;
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
  userId: string | null;
  partnerRef: string | null;
  partnerName: string | null;
  target: { type: string; id: string };
  /** the e-mail address of an operator the entry is about, while they exist */
  operatorEmail: string | null;
  reason: string | null;
  changes: ActivityChanges;
}

/** The SHA-256 of a partner's id (an SQL parameter), in hex: how its entries are found once it is deleted. */
const PARTNER_REF = (userId: string) => `encode(sha256(convert_to(${userId}::text, 'UTF8')), 'hex')`;

const LINE_COLUMNS = `id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  json_build_object('type', actor_type, 'id', actor_id) AS actor, source, action, user_id AS "userId", partner_ref AS "partnerRef",
  partner_name AS "partnerName",
  json_build_object('type', target_type, 'id', target_id) AS target, reason, changes,
  (SELECT o.email FROM operators o WHERE target_type = 'operator' AND o.id::text = target_id) AS "operatorEmail"`;

/** The operators' log: every statement on operator_actions. An entry is written in the change's own transaction. */
@Injectable()
export class OperatorLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Writes an entry, with the partner's name as it is now (read in the same statement). */
  async append(actor: OperatorActor, reason: string | null, entry: OperatorLogEntry, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO operator_actions (actor_type, actor_id, source, action, user_id, partner_name, target_type, target_id, reason, changes)
       VALUES ($1, $2, $3, $4, $5, ${userName('$5::uuid')}, $6, $7, $8, $9)`,
      [actor.type, actor.id, actor.source, entry.action, entry.userId, entry.target.type, entry.target.id, reason, JSON.stringify(entry.changes ?? {})],
    );
  }

  /**
   * After a partner's deletion: its entries keep what was done, when, by whom and why, but no id, name or target of
   * it; partner_ref (the SHA-256 of its id) and each target's SHA-256 let whoever holds an id find its entries.
   */
  async forgetPartner(userId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE operator_actions SET user_id = NULL, partner_name = NULL, partner_ref = ${PARTNER_REF('$1')},
              target_id = encode(sha256(convert_to(target_id, 'UTF8')), 'hex')
        WHERE user_id = $1`,
      [userId],
    );
  }

  /** The entry of a partner's deletion, written once the partner is forgotten: by its partner_ref alone. */
  async appendDeletion(actor: OperatorActor, reason: string | null, userId: string, changes: ActivityChanges): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO operator_actions (actor_type, actor_id, source, action, user_id, partner_ref, target_type, target_id, reason, changes)
       VALUES ($1, $2, $3, 'account.deleted', NULL, ${PARTNER_REF('$4')}, 'account', ${PARTNER_REF('$4')}, $5, $6)`,
      [actor.type, actor.id, actor.source, userId, reason, JSON.stringify(changes)],
    );
  }

  /**
   * Newest first, after the cursor, of one partner or of all: up to limit + 1, so that the caller knows whether more
   * follow. Ordered and compared at the cursor's precision (milliseconds), so that two entries within one
   * millisecond are neither skipped nor shown twice; the log is written by people, small enough to sort.
   */
  page(userId: string | null, page: PageRequest<NewestFirstCursor>): Promise<OperatorLogLine[]> {
    return this.dataSource.query<OperatorLogLine[]>(
      `SELECT ${LINE_COLUMNS} FROM operator_actions
        WHERE ($1::uuid IS NULL OR user_id = $1)
          AND ($2::timestamptz IS NULL OR (date_trunc('milliseconds', occurred_at), id) < ($2::timestamptz, $3::uuid))
        ORDER BY date_trunc('milliseconds', occurred_at) DESC, id DESC LIMIT $4`,
      [userId, page.after?.at ?? null, page.after?.id ?? null, page.limit + 1],
    );
  }
}
