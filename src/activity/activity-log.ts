import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { NewestFirstCursor, PageRequest, writeNewestFirstCursor } from '../validation/paging';
import { ActivityAction, ActivityChanges, ActorType, ChainBreak, ChainedEvent, eventHash, firstBreak, GENESIS_HASH } from './activity-chain';

/** Who made a change, and from where (null for a change not made over HTTP). */
export interface ActivityOrigin {
  actor: { type: ActorType; id: string | null };
  clientAddress: string | null;
  userAgent: string | null;
}

/** A change to log: whose account, what happened to what, and its fields' old and new values. */
export interface ActivityEntry {
  userId: string;
  action: ActivityAction;
  target: { type: string; id: string };
  changes?: ActivityChanges;
}

/** The operator's admin command, acting on a user's account. */
export const OPERATOR_ORIGIN: ActivityOrigin = { actor: { type: 'operator', id: null }, clientAddress: null, userAgent: null };

/** What the log is filtered by; null: no filter. `from` inclusive, `to` exclusive (occurredAt). */
export interface ActivityFilters {
  action: string | null;
  actorType: string | null;
  actorId: string | null;
  from: string | null;
  to: string | null;
}

/** An event as the log shows it (GET /v1/activity, the console): without its user and its place in the chain. */
export type ActivityEvent = Omit<ChainedEvent, 'userId' | 'seq'>;

/** Events the CSV export reads per statement: a few hundred rows' memory, and no connection held between pages. */
const EXPORT_PAGE_SIZE = 500;

const shown = ({ userId: _user, seq: _seq, ...event }: ChainedEvent): ActivityEvent => event;

const EVENT_COLUMNS = `id, user_id AS "userId", seq::int AS seq, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  json_build_object('type', actor_type, 'id', actor_id) AS actor, action, json_build_object('type', target_type, 'id', target_id) AS target,
  client_address AS "clientAddress", user_agent AS "userAgent", changes, previous_hash AS "previousHash", hash`;

/**
 * The activity log: every statement on activity_events and activity_chains. A user's events form a hash chain
 * (activity-chain.ts); an append locks the chain's head row, so that appends of one user take turns, and runs in
 * the caller's transaction when given one, so that the change and its event commit together.
 */
@Injectable()
export class ActivityLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async append(origin: ActivityOrigin, entry: ActivityEntry, manager?: EntityManager): Promise<void> {
    if (!manager) return this.dataSource.transaction((own) => this.append(origin, entry, own));
    await manager.query(`INSERT INTO activity_chains (user_id, last_seq, last_hash) VALUES ($1, 0, $2) ON CONFLICT (user_id) DO NOTHING`, [
      entry.userId,
      GENESIS_HASH,
    ]);
    // The time is read once the head is held, and kept a millisecond past the previous event's at least, so that the
    // chain's order (seq) and the log's (occurredAt, newest first) are one.
    const [head] = await manager.query<{ seq: number; hash: string; now: string }[]>(
      `SELECT last_seq::int AS seq, last_hash AS hash,
              to_char(GREATEST(clock_timestamp(), last_at + interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now
         FROM activity_chains WHERE user_id = $1 FOR UPDATE`,
      [entry.userId],
    );
    const content = {
      id: randomUUID(),
      userId: entry.userId,
      seq: head.seq + 1,
      occurredAt: head.now,
      actor: origin.actor,
      action: entry.action,
      target: entry.target,
      clientAddress: origin.clientAddress,
      userAgent: origin.userAgent,
      changes: entry.changes ?? {},
    };
    const hash = eventHash(head.hash, content);
    await manager.query(
      `INSERT INTO activity_events (id, user_id, seq, occurred_at, actor_type, actor_id, action, target_type, target_id, client_address, user_agent,
                                    changes, previous_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        content.id,
        content.userId,
        content.seq,
        content.occurredAt,
        content.actor.type,
        content.actor.id,
        content.action,
        content.target.type,
        content.target.id,
        content.clientAddress,
        content.userAgent,
        JSON.stringify(content.changes),
        head.hash,
        hash,
      ],
    );
    await manager.query('UPDATE activity_chains SET last_seq = $2, last_hash = $3, last_at = $4 WHERE user_id = $1', [
      entry.userId,
      content.seq,
      hash,
      content.occurredAt,
    ]);
  }

  /** One page of the user's events, newest first, and the cursor of the next (null on the last): the API's and the console's. */
  async list(
    userId: string,
    filters: ActivityFilters,
    page: PageRequest<NewestFirstCursor>,
  ): Promise<{ events: ActivityEvent[]; nextCursor: string | null }> {
    const rows = await this.page(userId, filters, page);
    const events = rows.slice(0, page.limit);
    const last = events.at(-1);
    const nextCursor = rows.length > page.limit && last ? writeNewestFirstCursor({ at: last.occurredAt, id: last.id }) : null;
    return { events: events.map(shown), nextCursor };
  }

  /**
   * Every event of the user under the filters, newest first, read a page at a time (the list's query and cursor) as
   * the caller takes them. The first page is read at the call, so that a database that cannot serve it fails the
   * call rather than cutting a download short.
   */
  async everyEvent(userId: string, filters: ActivityFilters): Promise<AsyncGenerator<ActivityEvent>> {
    const first = await this.page(userId, filters, { limit: EXPORT_PAGE_SIZE, after: null });
    const next = (after: NewestFirstCursor) => this.page(userId, filters, { limit: EXPORT_PAGE_SIZE, after });
    return (async function* () {
      for (let rows = first; ;) {
        const events = rows.slice(0, EXPORT_PAGE_SIZE);
        yield* events.map(shown);
        const last = events.at(-1);
        if (rows.length <= EXPORT_PAGE_SIZE || !last) return;
        rows = await next({ at: last.occurredAt, id: last.id });
      }
    })();
  }

  /** The user's events, newest first, after the cursor: up to limit + 1, so that the caller knows whether more follow. */
  page(userId: string, filters: ActivityFilters, page: PageRequest<NewestFirstCursor>): Promise<ChainedEvent[]> {
    return this.dataSource.query<ChainedEvent[]>(
      `SELECT ${EVENT_COLUMNS} FROM activity_events
        WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (occurred_at, id) < ($2::timestamptz, $3::uuid))
          AND ($4::text IS NULL OR action = $4) AND ($5::text IS NULL OR actor_type = $5) AND ($6::text IS NULL OR actor_id = $6)
          AND ($7::timestamptz IS NULL OR occurred_at >= $7) AND ($8::timestamptz IS NULL OR occurred_at < $8)
        ORDER BY occurred_at DESC, id DESC LIMIT $9`,
      [
        userId,
        page.after?.at ?? null,
        page.after?.id ?? null,
        filters.action,
        filters.actorType,
        filters.actorId,
        filters.from,
        filters.to,
        page.limit + 1,
      ],
    );
  }

  /** Recomputes the user's chain from the oldest event kept: how many events it checked, and the first that breaks it. */
  async verify(userId: string): Promise<{ events: number; broken: ChainBreak | null }> {
    // One snapshot for the head and the events, so that an append meanwhile cannot look like a lost event.
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [head] = await manager.query<{ seq: number; hash: string }[]>(
        'SELECT last_seq::int AS seq, last_hash AS hash FROM activity_chains WHERE user_id = $1',
        [userId],
      );
      const events = await manager.query<ChainedEvent[]>(`SELECT ${EVENT_COLUMNS} FROM activity_events WHERE user_id = $1 ORDER BY seq`, [userId]);
      return { events: events.length, broken: firstBreak(events, head ?? { seq: 0, hash: GENESIS_HASH }) };
    });
  }

  /**
   * Deletes the events that occurred before `cutoff`, and with each the events of its user before it in the chain, so
   * that what is kept of a chain is always its newest part, verifiable from the oldest event kept.
   */
  async deleteBefore(cutoff: Date): Promise<number> {
    const [, deleted] = await this.dataSource.query<[unknown, number]>(
      `DELETE FROM activity_events e USING (
         SELECT user_id, max(seq) AS last_seq FROM activity_events WHERE occurred_at < $1 GROUP BY user_id
       ) old WHERE e.user_id = old.user_id AND e.seq <= old.last_seq`,
      [cutoff],
    );
    return deleted;
  }

  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ activityEvents: number }> {
    const [counts] = await manager.query<{ activityEvents: number }[]>(
      'SELECT count(*)::int AS "activityEvents" FROM activity_events WHERE user_id = ANY ($1)',
      [userIds],
    );
    return counts;
  }
}
