import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { DataOwner } from '../auth/authenticated-user';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { EventsService } from '../events/events.service';
import { WebhookSecrets } from '../signing-secrets/webhook-secrets';
import { CreatedWebhookDto, CreateWebhookDto, DeliveryDto, RotatedSecretDto, WebhookDto } from './dto/webhook.dto';
import { ManualSendLimit } from './manual-send-limit';
import { newSigningSecret } from './sign-payload';
import { WebhookDispatcher } from './webhook-dispatcher';
import { MAX_ENDPOINTS_PER_USER } from './webhook-limits';

const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const DELIVERY_LOG_SIZE = 100;

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  created_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

const toWebhookDto = (row: EndpointRow, mode: KeyMode): WebhookDto => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.created_at.toISOString(),
  enabled: row.disabled_at === null,
  disabledAt: iso(row.disabled_at),
  disabledReason: row.disabled_reason,
  failingSince: iso(row.failing_since),
  mode,
});

/** A user's webhook endpoints and their delivery log; another user's ids answer 404. */
@Injectable()
export class EndpointsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
    private readonly manualSends: ManualSendLimit,
  ) {}

  /** Adds an endpoint unless the user has MAX_ENDPOINTS_PER_USER already. */
  async create({ userId, mode }: DataOwner, request: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const secret = newSigningSecret();
    const [row] = await this.dataSource.transaction(async (manager) => {
      // The user's row lock makes concurrent creations count one after another; the count below is a
      // statement of its own, so it sees the endpoints they committed.
      await manager.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
      return manager.query<EndpointRow[]>(
        `INSERT INTO webhook_endpoints (user_id, url, events, secret, created_at)
         SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM webhook_endpoints WHERE user_id = $1) < $6
         RETURNING id, url, events, created_at`,
        [userId, request.url, request.events, this.secrets.seal(secret), this.clock.now(), MAX_ENDPOINTS_PER_USER],
      );
    });
    if (!row) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.webhookLimit);
    return { id: row.id, url: row.url, events: row.events, secret, createdAt: row.created_at.toISOString(), mode };
  }

  async list({ userId, mode }: DataOwner): Promise<WebhookDto[]> {
    const rows = await this.dataSource.query<EndpointRow[]>(
      `SELECT id, url, events, created_at, disabled_at, disabled_reason, failing_since FROM webhook_endpoints
       WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map((row) => toWebhookDto(row, mode));
  }

  async remove(userId: string, id: string): Promise<void> {
    const [, affected] = await this.dataSource.query<[unknown, number]>(
      'DELETE FROM webhook_endpoints WHERE id = $1 AND user_id = $2',
      [id, userId],
    );
    if (affected === 0) throw new ApiError('WEBHOOK_NOT_FOUND');
  }

  /** A new secret; the previous one keeps signing for 24 h so that receivers can switch without losing events. */
  async rotateSecret(userId: string, id: string): Promise<RotatedSecretDto> {
    const secret = newSigningSecret();
    const until = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
    const [rows] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $3, secret = $4
       WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId, until, this.secrets.seal(secret)],
    );
    if (rows.length === 0) throw new ApiError('WEBHOOK_NOT_FOUND');
    return { secret, previousSecretExpiresAt: until.toISOString() };
  }

  /** Sends a ping event to this endpoint only. */
  async test(userId: string, id: string): Promise<DeliveryDto> {
    await this.requireOwn(userId, id);
    await this.manualSends.take(userId, id);
    const [event] = await this.events.record([{ userId, type: 'ping', data: { endpointId: id } }], this.clock.now());
    const [deliveryId] = await this.dispatcher.dispatch([event], id);
    if (!deliveryId) throw new ApiError('WEBHOOK_NOT_FOUND'); // disabled meanwhile: nothing to send to
    return (await this.deliveryLog(id, deliveryId))[0];
  }

  async deliveries(userId: string, id: string): Promise<DeliveryDto[]> {
    await this.requireOwn(userId, id);
    return this.deliveryLog(id, null);
  }

  /** Replays a delivery: the same event, so the same webhook-id, with a fresh retry schedule. */
  async retry(userId: string, id: string, deliveryId: string): Promise<DeliveryDto> {
    await this.requireOwn(userId, id);
    const found = await this.dataSource.query<unknown[]>('SELECT 1 FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2', [deliveryId, id]);
    if (found.length === 0) throw new ApiError('DELIVERY_NOT_FOUND');
    // After the checks, so that a wrong id does not use up the endpoint's turn.
    await this.manualSends.take(userId, id);
    const [rows] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE webhook_deliveries SET status = 'PENDING' WHERE id = $1 AND endpoint_id = $2 RETURNING id`,
      [deliveryId, id],
    );
    if (rows.length === 0) throw new ApiError('DELIVERY_NOT_FOUND'); // removed with its endpoint meanwhile
    // BullMQ job ids may not contain a colon.
    await this.dispatcher.enqueue(deliveryId, `${deliveryId}-replay-${randomUUID()}`);
    return (await this.deliveryLog(id, deliveryId))[0];
  }

  private async deliveryLog(endpointId: string, deliveryId: string | null): Promise<DeliveryDto[]> {
    const rows = await this.dataSource.query<
      { id: string; event_id: string; type: string; status: string; created_at: Date; attempts: DeliveryDto['attempts'] }[]
    >(
      `SELECT d.id, d.event_id, e.type, d.status, d.created_at,
              coalesce((SELECT json_agg(json_build_object(
                 'attempt', a.attempt, 'attemptedAt', a.attempted_at, 'responseStatus', a.response_status,
                 'durationMs', a.duration_ms, 'error', a.error, 'nextAttemptAt', a.next_attempt_at) ORDER BY a.attempt)
               FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
       FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
       WHERE d.endpoint_id = $1 AND ($2::uuid IS NULL OR d.id = $2)
       ORDER BY d.created_at DESC, d.id LIMIT $3`,
      [endpointId, deliveryId, DELIVERY_LOG_SIZE],
    );
    return rows.map((row) => ({
      id: row.id,
      eventId: row.event_id,
      eventType: row.type,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      attempts: row.attempts.map((attempt) => ({
        ...attempt,
        attemptedAt: new Date(attempt.attemptedAt).toISOString(),
        nextAttemptAt: attempt.nextAttemptAt === null ? null : new Date(attempt.nextAttemptAt).toISOString(),
      })),
    }));
  }

  private async requireOwn(userId: string, id: string): Promise<void> {
    const rows = await this.dataSource.query<unknown[]>('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND user_id = $2', [
      id,
      userId,
    ]);
    if (rows.length === 0) throw new ApiError('WEBHOOK_NOT_FOUND');
  }
}
