import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { EVENT_RETENTION_DAYS, EventType } from './event-types';

export interface NewEvent {
  userId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** An event as stored, delivered and served by the feed. */
export interface StoredEvent {
  seq: string;
  id: string;
  userId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

interface EventRow {
  seq: string;
  id: string;
  user_id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
}

const toStoredEvent = (row: EventRow): StoredEvent => ({
  seq: row.seq,
  id: row.id,
  userId: row.user_id,
  type: row.type,
  data: row.data,
  createdAt: row.created_at,
});

/** The events table: written by re-checks and webhook tests, read by the feed and the deliveries. */
@Injectable()
export class EventsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores events in one statement, inside the caller's transaction when it passes one. */
  async record(events: NewEvent[], at: Date, manager: EntityManager = this.dataSource.manager): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const rows = await manager.query<EventRow[]>(
      `INSERT INTO events (user_id, type, data, created_at)
       SELECT user_id, type, data, $4 FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS e(user_id, type, data)
       RETURNING seq, id, user_id, type, data, created_at`,
      [events.map((event) => event.userId), events.map((event) => event.type), events.map((event) => JSON.stringify(event.data)), at],
    );
    return rows.map(toStoredEvent);
  }

  async find(eventId: string): Promise<StoredEvent | null> {
    const rows = await this.dataSource.query<EventRow[]>('SELECT seq, id, user_id, type, data, created_at FROM events WHERE id = $1', [eventId]);
    return rows[0] ? toStoredEvent(rows[0]) : null;
  }

  /** The user's events after a cursor (an event's seq), oldest first. */
  async feed(userId: string, after: string, limit: number): Promise<StoredEvent[]> {
    const rows = await this.dataSource.query<EventRow[]>(
      `SELECT seq, id, user_id, type, data, created_at FROM events
       WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [userId, after, limit],
    );
    return rows.map(toStoredEvent);
  }

  /** The user's newest events, newest first (the console's feed). */
  async latest(userId: string, limit: number): Promise<StoredEvent[]> {
    const rows = await this.dataSource.query<EventRow[]>(
      'SELECT seq, id, user_id, type, data, created_at FROM events WHERE user_id = $1 ORDER BY seq DESC LIMIT $2',
      [userId, limit],
    );
    return rows.map(toStoredEvent);
  }

  /** Drops events older than the retention; their deliveries go with them. */
  async deleteExpired(now: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM events WHERE created_at < $1::timestamptz - make_interval(days => $2)`, [now, EVENT_RETENTION_DAYS]);
  }

  /** The users' events, counted for keys delete-user. */
  async countUserRows(userIds: string[], manager: EntityManager = this.dataSource.manager): Promise<{ events: number }> {
    const [counts] = await manager.query<{ events: number }[]>('SELECT count(*)::int AS "events" FROM events WHERE user_id = ANY ($1)', [userIds]);
    return counts;
  }
}
