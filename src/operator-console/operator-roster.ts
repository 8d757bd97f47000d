import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ActivityChanges } from '../activity/activity-chain';
import { normaliseEmail } from '../people/email-address';
import { RedisStore } from '../redis/redis.module';
import type { OperatorRequest } from './operator-actions.service';
import { OperatorChange, OperatorChangeRefusal, operatorChangeRefusal, RosterOperator } from './operator-change';
import { OperatorAction, OperatorLog } from './operator-log';
import type { OperatorRole } from './operator-role';
import { endOperatorSessions } from './operator-session-keys';

export type OperatorStatus = 'invited' | 'active' | 'disabled';

/** An operator as the Operators page lists them. */
export interface OperatorLine {
  id: string;
  email: string;
  displayName: string;
  role: OperatorRole;
  status: OperatorStatus;
  singleSignOn: boolean;
  passkeys: number;
  createdAt: string;
  lastSignInAt: string | null;
}

interface LockedOperator extends RosterOperator {
  email: string;
  status: OperatorStatus;
}

const STATUS = `CASE WHEN disabled_at IS NOT NULL THEN 'disabled'
  WHEN totp_confirmed_at IS NOT NULL OR sso_joined_at IS NOT NULL THEN 'active' ELSE 'invited' END`;
const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const LINE = `o.id, o.email, o.display_name AS "displayName", o.role, ${STATUS} AS status, o.sso_joined_at IS NOT NULL AS "singleSignOn",
  (SELECT count(*)::int FROM operator_passkeys p WHERE p.operator_id = o.id) AS passkeys, ${ISO('o.created_at')} AS "createdAt",
  ${ISO('o.last_sign_in_at')} AS "lastSignInAt"`;

/** A change's outcome: made (or nothing to change), or refused by the rules. */
export type OperatorChangeOutcome = { changed: boolean } | { refused: OperatorChangeRefusal };

/**
 * The operators themselves, managed by an `operator` on the Operators page or by the admin command: disabled (their
 * sessions end at once, and no sign-in lets them in), enabled, given another role, removed (their row deleted with
 * their passkeys; the operators' log keeps who they were). Each change holds every operator's row locked while the
 * rules (operator-change.ts) are checked and the change and its log entry are written, in one transaction.
 */
@Injectable()
export class OperatorRoster {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly log: OperatorLog,
    private readonly redis: RedisStore,
  ) {}

  /** Every operator, by address. */
  list(): Promise<OperatorLine[]> {
    return this.dataSource.query<OperatorLine[]>(`SELECT ${LINE} FROM operators o ORDER BY o.email`);
  }

  async find(operatorId: string): Promise<OperatorLine | null> {
    const [row] = await this.dataSource.query<OperatorLine[]>(`SELECT ${LINE} FROM operators o WHERE o.id = $1`, [operatorId]);
    return row ?? null;
  }

  /** The id of the operator with this address, for the admin command; null when there is none. */
  async idOf(email: string): Promise<string | null> {
    const [row] = await this.dataSource.query<{ id: string }[]>(`SELECT id FROM operators WHERE email = $1`, [normaliseEmail(email)]);
    return row?.id ?? null;
  }

  /**
   * Makes the change, logged with the request's actor and reason; null when there is no such operator. A change
   * that changes nothing (disabling a disabled operator, the role they have) is no entry. A disabled or removed
   * operator's sessions end once the change is committed.
   */
  async change(request: OperatorRequest, operatorId: string, change: OperatorChange): Promise<OperatorChangeOutcome | null> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const roster = await manager.query<LockedOperator[]>(
        `SELECT id, email, role, ${STATUS} AS status, ${STATUS} = 'active' AS active FROM operators ORDER BY id FOR UPDATE`,
      );
      const target = roster.find((operator) => operator.id === operatorId);
      if (!target) return null;
      const refusal = operatorChangeRefusal(request.actor.type === 'operator' ? request.actor.id : null, target, change, roster);
      if (refusal !== null) return { refused: refusal };
      const entry = await this.apply(manager, target, change);
      if (entry === null) return { changed: false };
      await this.log.append(
        request.actor,
        request.reason,
        { action: entry.action, userId: null, target: { type: 'operator', id: target.id }, changes: entry.changes },
        manager,
      );
      return { changed: true };
    });
    if (outcome !== null && 'changed' in outcome && outcome.changed && (change.kind === 'disable' || change.kind === 'remove')) {
      await endOperatorSessions(this.redis, operatorId);
    }
    return outcome;
  }

  /** The change's statement and what the log says of it; null when it changes nothing. */
  private async apply(
    manager: EntityManager,
    target: LockedOperator,
    change: OperatorChange,
  ): Promise<{ action: OperatorAction; changes: ActivityChanges } | null> {
    const email = { old: target.email, new: target.email };
    switch (change.kind) {
      case 'disable':
        if (target.status === 'disabled') return null;
        await manager.query(`UPDATE operators SET disabled_at = now() WHERE id = $1`, [target.id]);
        return { action: 'operator.disabled', changes: { email, status: { old: target.status, new: 'disabled' } } };
      case 'enable': {
        if (target.status !== 'disabled') return null;
        const [[enabled]] = await manager.query<[{ status: OperatorStatus }[], number]>(
          `UPDATE operators SET disabled_at = NULL WHERE id = $1 RETURNING ${STATUS} AS status`,
          [target.id],
        );
        return { action: 'operator.enabled', changes: { email, status: { old: 'disabled', new: enabled.status } } };
      }
      case 'role':
        if (target.role === change.role) return null;
        await manager.query(`UPDATE operators SET role = $2 WHERE id = $1`, [target.id, change.role]);
        return { action: 'operator.role_changed', changes: { email, role: { old: target.role, new: change.role } } };
      case 'remove':
        await manager.query(`DELETE FROM operators WHERE id = $1`, [target.id]);
        return { action: 'operator.removed', changes: { email: { old: target.email, new: null }, role: { old: target.role, new: null } } };
    }
  }
}
