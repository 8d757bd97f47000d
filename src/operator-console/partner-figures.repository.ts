import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { apiKeyRows, partners } from '../auth/users-sql';
import { batchProgressRows } from '../batches/batches-sql';
import { answers } from '../verification-records/records-sql';
import { memberRows } from '../members/members-sql';
import { charges, usagePerPeriod } from '../quota/quota-sql';
import type { PageRequest } from '../validation/paging';
import { watchedNumbers } from '../watchlist/watch-sql';
import { endpointHealth } from '../webhooks/webhooks-sql';
import { DirectorySort } from './partner-standing';

/** One partner of the list, as stored and counted. */
export interface DirectoryRow {
  id: string;
  name: string;
  quota: number | null;
  used: number;
  requestsLastDay: number;
  lastRequestAt: string | null;
  disabled: boolean;
  testMode: boolean;
  liveKeys: number;
  keys: number;
  members: number;
  watched: number;
}

/** A partner's answers that took a register lookup in a period, and every partner's in it. */
export interface RegisterAnswersRow {
  id: string;
  name: string;
  answers: number;
  allPartners: number;
}

/** A partner's settings, as its page shows them. */
export interface PartnerRow {
  id: string;
  name: string;
  quota: number | null;
  rateLimitPerSecond: number | null;
  watchLimit: number | null;
  liveLookupLimit: number | null;
  disabledAt: string | null;
  createdAt: string;
  testSide: string | null;
}

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  role: string;
  mode: 'live' | 'test';
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A member of the partner, as the operator sees it: never a secret, only whether a TOTP factor is set. */
export interface MemberListRow {
  id: string;
  email: string;
  displayName: string | null;
  role: string;
  status: string;
  lastSignInAt: string | null;
  totp: boolean;
}

export interface EndpointRow {
  id: string;
  url: string;
  failingSince: string | null;
  disabledAt: string | null;
  failed: number;
  retrying: number;
}

export interface BatchRow {
  id: string;
  total: number;
  pending: number;
  createdAt: string;
}

export interface DirectoryQuery {
  /** part of a name, a whole user id, the start of a key (its prefix), or a member's whole e-mail address; null: every partner */
  search: string | null;
  sort: DirectorySort;
  period: string;
  page: PageRequest<number>;
}

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The list's orders: the partner's id last, so that pages never share or skip a row. */
const ORDER: Record<DirectorySort, string> = {
  name: 'p.name, p.id',
  usage: 'COALESCE(q.used, 0) DESC, p.id',
  share: `(CASE WHEN p.monthly_quota IS NULL THEN NULL ELSE COALESCE(q.used, 0)::numeric / GREATEST(p.monthly_quota, 1) END) DESC NULLS LAST, p.id`,
};

/**
 * The operator console's figures, read from what the service already stores and counts: the partners' settings and
 * keys, the month's usage, the verification records, watched numbers, webhook deliveries and batches. All through
 * the SQL the owning modules export; nothing here writes.
 */
@Injectable()
export class PartnerFigures {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page of the partner list, in one statement: up to limit + 1 rows, so that the caller knows whether more
   * follow. Each partner's figures count its live side (its test side shows as test mode).
   */
  directory({ search, sort, period, page }: DirectoryQuery): Promise<DirectoryRow[]> {
    return this.dataSource.query<DirectoryRow[]>(
      `SELECT p.id, p.name, p.monthly_quota AS quota, COALESCE(q.used, 0) AS used, COALESCE(r.requests, 0) AS "requestsLastDay",
              ${ISO('k.last_used')} AS "lastRequestAt", p.disabled_at IS NOT NULL AS disabled, p.test_side IS NOT NULL AS "testMode",
              COALESCE(k.live, 0) AS "liveKeys", COALESCE(k.total, 0) AS keys, COALESCE(m.members, 0) AS members, COALESCE(w.watched, 0) AS watched
         FROM ${partners('p')}
         LEFT JOIN ${usagePerPeriod('q')} ON q.user_id = p.id AND q.period = $2
         LEFT JOIN LATERAL (SELECT count(*)::int AS requests FROM ${answers('a')}
                             WHERE a.user_id = p.id AND a.answered_at > now() - interval '24 hours') r ON true
         LEFT JOIN LATERAL (SELECT max(k.last_used_at) AS last_used, count(*)::int AS total,
                                   (count(*) FILTER (WHERE k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())))::int AS live
                              FROM ${apiKeyRows('k')} WHERE k.user_id = p.id) k ON true
         LEFT JOIN LATERAL (SELECT count(*)::int AS watched FROM ${watchedNumbers('w')} WHERE w.user_id = p.id) w ON true
         LEFT JOIN LATERAL (SELECT count(*)::int AS members FROM ${memberRows('m')} WHERE m.user_id = p.id) m ON true
        WHERE $1::text IS NULL OR p.name ILIKE '%' || $1 || '%' OR p.id::text = lower($1)
              OR EXISTS (SELECT 1 FROM ${apiKeyRows('s')} WHERE s.user_id IN (p.id, p.test_side) AND starts_with(s.key_prefix, $1))
              OR EXISTS (SELECT 1 FROM ${memberRows('e')} WHERE e.user_id = p.id AND e.email = lower($1))
        ORDER BY ${ORDER[sort]}
        LIMIT $3 OFFSET $4`,
      [search, period, page.limit + 1, page.after ?? 0],
    );
  }

  async partner(userId: string): Promise<PartnerRow | undefined> {
    const [row] = await this.dataSource.query<PartnerRow[]>(
      `SELECT id, name, monthly_quota AS quota, rate_limit_per_second AS "rateLimitPerSecond", watch_limit AS "watchLimit",
              live_lookup_limit AS "liveLookupLimit",
              ${ISO('disabled_at')} AS "disabledAt", ${ISO('created_at')} AS "createdAt", test_side AS "testSide"
         FROM ${partners('p')} WHERE id = $1`,
      [userId],
    );
    return row;
  }

  /** New licence numbers charged per day (UTC) since `since` (the days with none are left out). */
  usagePerDay(userId: string, since: Date): Promise<{ day: string; used: number }[]> {
    return this.dataSource.query(
      `SELECT to_char(c.charged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS used FROM ${charges('c')}
        WHERE c.user_id = $1 AND c.charged_at >= $2 GROUP BY 1 ORDER BY 1`,
      [userId, since],
    );
  }

  /** Usage per billing period, of the periods given (the months with none are left out). */
  usagePerMonth(userId: string, periods: string[]): Promise<{ period: string; used: number }[]> {
    return this.dataSource.query(`SELECT q.period, q.used FROM ${usagePerPeriod('q')} WHERE q.user_id = $1 AND q.period = ANY ($2) ORDER BY 1`, [
      userId,
      periods,
    ]);
  }

  /** The live side's answers since `since`, by outcome and channel. */
  answersByOutcome(userId: string, since: Date): Promise<{ status: string; channel: string; answers: number }[]> {
    return this.dataSource.query(
      `SELECT a.status, a.channel, count(*)::int AS answers FROM ${answers('a')} WHERE a.user_id = $1 AND a.answered_at >= $2
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [userId, since],
    );
  }

  /**
   * The partners whose answers took a register lookup since `since`, most first, `limit` of them, each with the count of
   * every partner's such answers (allPartners): their live side's
   * (a test key's answers come from its test register). By the answered_at index, so the last hour costs its rows only.
   */
  registerAnswersByPartner(since: Date, limit: number): Promise<RegisterAnswersRow[]> {
    return this.dataSource.query(
      `SELECT p.id, p.name, count(*)::int AS answers, (sum(count(*)) OVER ())::int AS "allPartners" FROM ${answers('a')} JOIN ${partners('p')} ON p.id = a.user_id
        WHERE a.answered_at >= $1 AND a.source = 'register' GROUP BY 1, 2 ORDER BY 3 DESC, 2, 1 LIMIT $2`,
      [since, limit],
    );
  }

  /** Every key of the partner, both sides, revoked ones included, newest first. */
  keys(userId: string): Promise<KeyRow[]> {
    return this.dataSource.query(
      `SELECT k.id, k.name, k.key_prefix AS prefix, k.role, CASE WHEN k.user_id = p.id THEN 'live' ELSE 'test' END AS mode,
              ${ISO('k.created_at')} AS "createdAt", k.created_by_key_id AS "createdBy", ${ISO('k.last_used_at')} AS "lastUsedAt",
              ${ISO('k.expires_at')} AS "expiresAt", ${ISO('k.revoked_at')} AS "revokedAt"
         FROM ${partners('p')} JOIN ${apiKeyRows('k')} ON k.user_id IN (p.id, p.test_side)
        WHERE p.id = $1 ORDER BY k.created_at DESC, k.id`,
      [userId],
    );
  }

  /** The partner's members (removed ones left out), in the order they were invited. */
  members(userId: string): Promise<MemberListRow[]> {
    return this.dataSource.query(
      `SELECT m.id, m.email, m.display_name AS "displayName", m.role, m.status, ${ISO('m.last_sign_in_at')} AS "lastSignInAt", m.totp
         FROM ${memberRows('m')} WHERE m.user_id = $1 ORDER BY m.invited_at, m.id`,
      [userId],
    );
  }

  /** The partner's webhook endpoints (both sides), with their failed and retrying deliveries. */
  endpoints(userId: string): Promise<EndpointRow[]> {
    return this.dataSource.query(
      `SELECT e.id, e.url, ${ISO('e.failing_since')} AS "failingSince", ${ISO('e.disabled_at')} AS "disabledAt", e.failed, e.retrying
         FROM ${partners('p')} JOIN ${endpointHealth('e')} ON e.user_id IN (p.id, p.test_side)
        WHERE p.id = $1 ORDER BY e.created_at`,
      [userId],
    );
  }

  /** The partner's batches still running (both sides), oldest first. */
  runningBatches(userId: string): Promise<BatchRow[]> {
    return this.dataSource.query(
      `SELECT b.id, b.total, b.pending, ${ISO('b.created_at')} AS "createdAt"
         FROM ${partners('p')} JOIN ${batchProgressRows('b')} ON b.user_id IN (p.id, p.test_side)
        WHERE p.id = $1 AND b.status = 'RUNNING' ORDER BY b.created_at`,
      [userId],
    );
  }
}
