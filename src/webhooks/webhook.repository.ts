import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeyMode } from '../auth/key-mode';
import { isServedUser, lockUser, userMode } from '../auth/users-sql';
import { AppConfig } from '../config/app-config';
import type { EventType } from '../events/event-types';
import { SealedSecretRows, sealedSecretColumns } from '../secrets/secret-reencryption';
import { storedEvents } from '../events/events-sql';
import type { DeliveryDto } from './dto/webhook.dto';

/** An endpoint as its user sees it. */
export interface StoredEndpoint {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
}

/** A delivery with its endpoint, its event and what an attempt needs to know. */
export interface DeliveryToSend {
  userId: string;
  endpointId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
  /** the endpoint's user is not served (disabled, or without a live key): the delivery is held */
  userDisabled: boolean;
  eventId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
  /** the endpoint's user's side, which the body names so that one URL can take both live and test events */
  mode: KeyMode;
  /** attempts recorded so far */
  attempts: number;
}

/** One attempt as recorded, and what it does to its delivery and endpoint. */
export interface RecordedAttempt {
  deliveryId: string;
  endpointId: string;
  attempt: number;
  attemptedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
  deliveryStatus: string;
  failingSince: Date | null;
  /** set: the endpoint is disabled for this reason, at attemptedAt */
  disableReason: string | null;
}

/** A delivery as the log shows it, attempts first in order (their times as stored in JSON). */
export type LoggedDelivery = Omit<DeliveryDto, 'createdAt'> & { createdAt: Date };

const ENDPOINT_COLUMNS = `id, url, events, created_at AS "createdAt", disabled_at AS "disabledAt", disabled_reason AS "disabledReason",
  failing_since AS "failingSince"`;

/** Every statement on webhook_endpoints, webhook_deliveries and webhook_attempts. */
@Injectable()
export class WebhookRepository {
  /** SQL: the endpoint `w`'s user is served (a test side only while test mode is enabled) */
  private readonly endpointUserServed: string;
  /** Endpoints' signing secrets, current and previous, for the admin command's reseal-secrets. */
  readonly sealedSecrets: SealedSecretRows;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.endpointUserServed = isServedUser('w.user_id', config.get('TEST_MODE_ENABLED'));
    this.sealedSecrets = sealedSecretColumns(dataSource, 'webhook_endpoints', 'id', ['secret', 'previous_secret']);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * In the caller's transaction: adds an endpoint unless the user has `maxPerUser` already; undefined when it has.
   * The user's row lock makes concurrent creations count one after another; the count is a statement of its own, so
   * it sees the endpoints they committed.
   */
  async createEndpoint(
    manager: EntityManager,
    userId: string,
    url: string,
    events: string[],
    sealedSecret: string,
    createdAt: Date,
    maxPerUser: number,
  ): Promise<StoredEndpoint | undefined> {
    await lockUser(manager, userId, 'UPDATE');
    const [row] = await manager.query<StoredEndpoint[]>(
      `INSERT INTO webhook_endpoints (user_id, url, events, secret, created_at)
       SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhook_endpoints WHERE user_id = $1) < $6
       RETURNING ${ENDPOINT_COLUMNS}`,
      [userId, url, events, sealedSecret, createdAt, maxPerUser],
    );
    return row;
  }

  listEndpoints(userId: string): Promise<StoredEndpoint[]> {
    return this.dataSource.query<StoredEndpoint[]>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE user_id = $1 ORDER BY created_at, id`, [
      userId,
    ]);
  }

  /** In the caller's transaction: answers whether the user had the endpoint. */
  async removeEndpoint(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const [, affected] = await manager.query<[unknown, number]>('DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2', [id, userId]);
    return affected > 0;
  }

  async ownsEndpoint(userId: string, id: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows.length > 0;
  }

  /** In the caller's transaction: a new secret, the current one signing on until `until`; answers whether the user had the endpoint. */
  async rotateSecret(manager: EntityManager, userId: string, id: string, until: Date, sealedSecret: string): Promise<boolean> {
    const [rows] = await manager.query<[unknown[], number]>(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $3, secret = $4
       WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId, until, sealedSecret],
    );
    return rows.length > 0;
  }

  /**
   * In the caller's transaction: changes the user's endpoint's URL and/or event types (an absent one stays), its row
   * held until the transaction ends; the endpoint before and after, or undefined when the user has no such endpoint.
   */
  async updateEndpoint(
    manager: EntityManager,
    userId: string,
    id: string,
    change: { url?: string; events?: string[] },
  ): Promise<{ before: StoredEndpoint; after: StoredEndpoint } | undefined> {
    const [before] = await manager.query<StoredEndpoint[]>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND user_id = $2 FOR NO KEY UPDATE`,
      [id, userId],
    );
    if (!before) return undefined;
    // An UPDATE answers its rows and how many it changed.
    const [[after]] = await manager.query<[StoredEndpoint[], number]>(
      `UPDATE webhook_endpoints SET url = coalesce($2, url), events = coalesce($3::text[], events) WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, change.url ?? null, change.events ?? null],
    );
    return { before, after };
  }

  /**
   * A delivery per event and per enabled endpoint of the event's user that takes its type (or only `endpointId`,
   * whatever its types), in the events' order; answers their ids.
   */
  async insertDeliveries(eventIds: string[], endpointId: string | null): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, status, created_at)
       SELECT w.id, e.id, 'PENDING', e.created_at
       FROM ${storedEvents('e')} JOIN webhook_endpoints w ON w.user_id = e.user_id
       WHERE e.id = ANY ($1::uuid[]) AND w.disabled_at IS NULL
         AND (w.id = $2 OR ($2::uuid IS NULL AND e.type = ANY (w.events)))
       ORDER BY e.seq
       RETURNING id`,
      [eventIds, endpointId],
    );
    return rows.map(({ id }) => id);
  }

  /**
   * Releases every delivery held while its user was not served whose user is served now, and answers them with
   * the time of their hold. SKIP LOCKED: two ticks never release one twice.
   */
  async releaseHeld(): Promise<{ id: string; heldAt: Date }[]> {
    const [rows] = await this.dataSource.query<[{ id: string; heldAt: Date }[], number]>(
      `WITH resumable AS (
         SELECT d.id, d.held_at FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         WHERE d.held_at IS NOT NULL AND ${this.endpointUserServed}
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET held_at = NULL FROM resumable WHERE d.id = resumable.id
       RETURNING d.id, resumable.held_at AS "heldAt"`,
    );
    return rows;
  }

  /** The delivery with what its next attempt needs; undefined once it is deleted with its endpoint or event. */
  async deliveryToSend(deliveryId: string): Promise<DeliveryToSend | undefined> {
    const [row] = await this.dataSource.query<DeliveryToSend[]>(
      `SELECT w.user_id AS "userId", d.endpoint_id AS "endpointId", w.url, w.secret, w.previous_secret AS "previousSecret",
              w.previous_secret_until AS "previousSecretUntil", w.failing_since AS "failingSince", w.disabled_at AS "disabledAt",
              NOT ${this.endpointUserServed} AS "userDisabled", e.id AS "eventId", e.type, e.data, e.created_at AS "createdAt",
              ${userMode('w.user_id')} AS mode,
              (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN ${storedEvents('e')} ON e.id = d.event_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    return row;
  }

  /** Holds the delivery (still PENDING) from `now`, or from when it was first held. */
  async hold(deliveryId: string, now: Date): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET held_at = COALESCE(held_at, $2) WHERE id = $1`, [deliveryId, now]);
  }

  async setDeliveryStatus(deliveryId: string, status: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET status = $2 WHERE id = $1`, [deliveryId, status]);
  }

  /** Records an attempt, its delivery's status and its endpoint's failing or disabled state, in one transaction. */
  recordAttempt(attempt: RecordedAttempt): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, response_status, duration_ms, error, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [attempt.deliveryId, attempt.attempt, attempt.attemptedAt, attempt.responseStatus, attempt.durationMs, attempt.error, attempt.nextAttemptAt],
      );
      await manager.query(`UPDATE webhook_deliveries SET status = $2 WHERE id = $1`, [attempt.deliveryId, attempt.deliveryStatus]);
      await manager.query(
        `UPDATE webhook_endpoints SET failing_since = $2,
           disabled_at = CASE WHEN $3::text IS NULL THEN disabled_at ELSE $4 END,
           disabled_reason = coalesce($3, disabled_reason)
         WHERE id = $1`,
        [attempt.endpointId, attempt.failingSince, attempt.disableReason, attempt.attemptedAt],
      );
    });
  }

  async hasDelivery(endpointId: string, deliveryId: string): Promise<boolean> {
    const found = await this.dataSource.query<unknown[]>('SELECT 1 FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2', [deliveryId, endpointId]);
    return found.length > 0;
  }

  /** Makes the delivery PENDING again; answers whether it is still there. */
  async resetDelivery(endpointId: string, deliveryId: string): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE webhook_deliveries SET status = 'PENDING' WHERE id = $1 AND endpoint_id = $2 RETURNING id`,
      [deliveryId, endpointId],
    );
    return rows.length > 0;
  }

  /** The endpoint's deliveries (or only `deliveryId`), newest first, up to `limit`, each with its attempts. */
  deliveryLog(endpointId: string, deliveryId: string | null, limit: number): Promise<LoggedDelivery[]> {
    return this.dataSource.query<LoggedDelivery[]>(
      `SELECT d.id, d.event_id AS "eventId", e.type AS "eventType", d.status, d.created_at AS "createdAt",
              coalesce((SELECT json_agg(json_build_object(
                 'attempt', a.attempt, 'attemptedAt', a.attempted_at, 'responseStatus', a.response_status,
                 'durationMs', a.duration_ms, 'error', a.error, 'nextAttemptAt', a.next_attempt_at) ORDER BY a.attempt)
               FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
       FROM webhook_deliveries d JOIN ${storedEvents('e')} ON e.id = d.event_id
       WHERE d.endpoint_id = $1 AND ($2::uuid IS NULL OR d.id = $2)
       ORDER BY d.created_at DESC, d.id LIMIT $3`,
      [endpointId, deliveryId, limit],
    );
  }

  /** The users' endpoints, their deliveries and attempts, counted for keys delete-user. */
  async countUserRows(
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ webhookEndpoints: number; webhookDeliveries: number; webhookAttempts: number }> {
    const [counts] = await manager.query<{ webhookEndpoints: number; webhookDeliveries: number; webhookAttempts: number }[]>(
      `SELECT (SELECT count(*)::int FROM webhook_endpoints WHERE user_id = ANY ($1)) AS "webhookEndpoints",
              (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.user_id = ANY ($1)) AS "webhookDeliveries",
              (SELECT count(*)::int FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
                                     JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.user_id = ANY ($1)) AS "webhookAttempts"`,
      [userIds],
    );
    return counts;
  }
}
