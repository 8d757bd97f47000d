import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { commitWithin } from '../database/commit-within';
import { NamedStatement, runNamedStatement } from '../database/named-statement';

/** What a single charge needs: whose counter, which period, which number, the plan's limit, and the id it will carry. */
export interface ChargeRequest {
  userId: string;
  period: string;
  licenceNumber: string;
  monthlyQuota: number | null;
  chargeId: string;
}

export type ChargeOutcome = 'charged' | 'repeat' | 'refused';

/** What quota_charge_many did: the numbers it charged, how many were new, and the room left (null: unlimited). */
export interface ManyCharged {
  charged: string[];
  needed: number;
  remaining: number | null;
}

// One outcome per charge asked, in the order asked (see the quota_charge_all migration).
const CHARGE_ALL: NamedStatement = {
  name: 'lvs_quota_charge_all',
  text: 'SELECT outcome FROM quota_charge_all($1::uuid[], $2::char(7)[], $3::char(16)[], $4::integer[], $5::uuid[])',
};
const CHARGE_MANY: NamedStatement = {
  name: 'lvs_quota_charge_many',
  text: 'SELECT charged, needed, remaining FROM quota_charge_many($1, $2, $3, $4, $5)',
};
// One row per (user, period) asked for, in the order asked, `used` null where nothing was charged yet.
const USAGES: NamedStatement = {
  name: 'lvs_quota_usages',
  text: `SELECT u.used FROM unnest($1::uuid[], $2::char(7)[]) WITH ORDINALITY AS asked(user_id, period, position)
           LEFT JOIN quota_usage u ON u.user_id = asked.user_id AND u.period = asked.period
          ORDER BY asked.position`,
};

/** Every statement on quota_usage and quota_charges; the charges are the migrations' atomic functions. */
@Injectable()
export class QuotaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Charges of any users and periods in one statement, which commits within `timeoutMs` or not at all. */
  async chargeAll(requests: readonly ChargeRequest[], timeoutMs: number): Promise<ChargeOutcome[]> {
    const rows = await commitWithin<{ outcome: ChargeOutcome }>(
      this.dataSource,
      CHARGE_ALL,
      [
        requests.map((request) => request.userId),
        requests.map((request) => request.period),
        requests.map((request) => request.licenceNumber),
        requests.map((request) => request.monthlyQuota),
        requests.map((request) => request.chargeId),
      ],
      timeoutMs,
    );
    return rows.map((row) => row.outcome);
  }

  /** A user's numbers charged all or nothing in one statement, which commits within `timeoutMs` or not at all. */
  async chargeMany(
    userId: string,
    period: string,
    licenceNumbers: string[],
    monthlyQuota: number | null,
    chargeId: string,
    timeoutMs: number,
  ): Promise<ManyCharged> {
    const [charged] = await commitWithin<ManyCharged>(this.dataSource, CHARGE_MANY, [userId, period, licenceNumbers, monthlyQuota, chargeId], timeoutMs);
    return charged;
  }

  /**
   * Undoes a charge atomically: quota_refund locks the counter before the number's row, as every charge does (see
   * its migration). A charge recorded before charges had ids (`chargeId` null) refunds the row without one.
   */
  async refund(userId: string, period: string, licenceNumber: string, chargeId: string | null): Promise<void> {
    await this.dataSource.query('SELECT quota_refund($1, $2, $3, $4)', [userId, period, licenceNumber, chargeId]);
  }

  /** Each (user, period)'s count, in the order asked; 0 where nothing was charged. */
  async usages(keys: readonly { userId: string; period: string }[]): Promise<number[]> {
    const rows = await runNamedStatement<{ used: number | null }>(this.dataSource, USAGES, [keys.map((key) => key.userId), keys.map((key) => key.period)]);
    return rows.map((row) => row.used ?? 0);
  }

  /** The user's count in each of the periods that has one. */
  async usedIn(userId: string, periods: string[]): Promise<Map<string, number>> {
    const rows = await this.dataSource.query<{ period: string; used: number }[]>(
      'SELECT period, used FROM quota_usage WHERE user_id = $1 AND period = ANY($2::char(7)[])',
      [userId, periods],
    );
    return new Map(rows.map((row) => [row.period, row.used]));
  }

  /** Deletes up to `limit` per-number ledger rows of periods before `oldestKept`; returns how many. */
  async deleteLedgerBefore(oldestKept: string, limit: number): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM quota_charges WHERE ctid IN (SELECT ctid FROM quota_charges WHERE period < $1 LIMIT $2)`,
      [oldestKept, limit],
    );
    return deleted;
  }

  /** The users' charges and counters, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ quotaCharges: number; quotaUsage: number }> {
    const [counts] = await manager.query<{ quotaCharges: number; quotaUsage: number }[]>(
      `SELECT (SELECT count(*)::int FROM quota_charges WHERE user_id = ANY ($1)) AS "quotaCharges",
              (SELECT count(*)::int FROM quota_usage WHERE user_id = ANY ($1)) AS "quotaUsage"`,
      [userIds],
    );
    return counts;
  }
}
