import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ActivityAction } from '../activity/activity-chain';
import { ActivityEntry, ActivityLog, ActivityOrigin } from '../activity/activity-log';
import type { DataOwner } from '../auth/authenticated-user';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { EventsService } from '../events/events.service';
import { WebhookSecrets } from '../secrets/webhook-secrets';
import { CreatedWebhookDto, CreateWebhookDto, DeliveryDto, RotatedSecretDto, UpdateWebhookDto, WebhookDto } from './dto/webhook.dto';
import { endpointChanges } from './endpoint-changes';
import { ManualSendLimit } from './manual-send-limit';
import { newSigningSecret } from './sign-payload';
import { WebhookDispatcher } from './webhook-dispatcher';
import { MAX_ENDPOINTS_PER_USER } from './webhook-limits';
import { StoredEndpoint, WebhookRepository } from './webhook.repository';

const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const DELIVERY_LOG_SIZE = 100;

const iso = (date: Date | null) => date?.toISOString() ?? null;

const endpointEntry = (userId: string, id: string, action: ActivityAction): ActivityEntry => ({ userId, action, target: { type: 'webhook', id } });

const toWebhookDto = (row: StoredEndpoint, mode: KeyMode): WebhookDto => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
  enabled: row.disabledAt === null,
  disabledAt: iso(row.disabledAt),
  disabledReason: row.disabledReason,
  failingSince: iso(row.failingSince),
  mode,
});

/**
 * A user's webhook endpoints and their delivery log; another user's ids answer 404. Creations, changes, removals and
 * rotations are logged (activity log) in their own transaction, so that both or neither stay.
 */
@Injectable()
export class EndpointsService {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly secrets: WebhookSecrets,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
    private readonly manualSends: ManualSendLimit,
    private readonly activity: ActivityLog,
  ) {}

  /** Adds an endpoint unless the user has MAX_ENDPOINTS_PER_USER already. */
  async create(origin: ActivityOrigin, { userId, mode }: DataOwner, request: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const secret = newSigningSecret();
    const row = await this.repository.transaction(async (manager) => {
      const created = await this.repository.createEndpoint(
        manager,
        userId,
        request.url,
        request.events,
        this.secrets.seal(secret),
        this.clock.now(),
        MAX_ENDPOINTS_PER_USER,
      );
      if (!created) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.webhookLimit);
      const changes = { url: { old: null, new: created.url }, events: { old: null, new: created.events } };
      await this.activity.append(origin, { ...endpointEntry(userId, created.id, 'webhook.created'), changes }, manager);
      return created;
    });
    return { id: row.id, url: row.url, events: row.events, secret, createdAt: row.createdAt.toISOString(), mode };
  }

  async list({ userId, mode }: DataOwner): Promise<WebhookDto[]> {
    const rows = await this.repository.listEndpoints(userId);
    return rows.map((row) => toWebhookDto(row, mode));
  }

  /** Changes the endpoint's URL and/or event types; logged only when a value really changed. Its secret and state stay. */
  async update(origin: ActivityOrigin, { userId, mode }: DataOwner, id: string, change: UpdateWebhookDto): Promise<WebhookDto> {
    return this.repository.transaction(async (manager) => {
      const updated = await this.repository.updateEndpoint(manager, userId, id, change);
      if (!updated) throw new ApiError('WEBHOOK_NOT_FOUND');
      const changes = endpointChanges(updated.before, updated.after);
      if (Object.keys(changes).length > 0) await this.activity.append(origin, { ...endpointEntry(userId, id, 'webhook.updated'), changes }, manager);
      return toWebhookDto(updated.after, mode);
    });
  }

  async remove(origin: ActivityOrigin, userId: string, id: string): Promise<void> {
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.removeEndpoint(manager, userId, id))) throw new ApiError('WEBHOOK_NOT_FOUND');
      await this.activity.append(origin, endpointEntry(userId, id, 'webhook.deleted'), manager);
    });
  }

  /** A new secret; the previous one keeps signing for 24 h so that receivers can switch without losing events. */
  async rotateSecret(origin: ActivityOrigin, userId: string, id: string): Promise<RotatedSecretDto> {
    const secret = newSigningSecret();
    const until = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
    await this.repository.transaction(async (manager) => {
      if (!(await this.repository.rotateSecret(manager, userId, id, until, this.secrets.seal(secret)))) throw new ApiError('WEBHOOK_NOT_FOUND');
      // Never the secrets: only when the previous one stops signing.
      const changes = { previousSecretExpiresAt: { old: null, new: until.toISOString() } };
      await this.activity.append(origin, { ...endpointEntry(userId, id, 'webhook.secret_rotated'), changes }, manager);
    });
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
    if (!(await this.repository.hasDelivery(id, deliveryId))) throw new ApiError('DELIVERY_NOT_FOUND');
    // After the checks, so that a wrong id does not use up the endpoint's turn.
    await this.manualSends.take(userId, id);
    // removed with its endpoint meanwhile
    if (!(await this.repository.resetDelivery(id, deliveryId))) throw new ApiError('DELIVERY_NOT_FOUND');
    // BullMQ job ids may not contain a colon.
    await this.dispatcher.enqueue(deliveryId, `${deliveryId}-replay-${randomUUID()}`);
    return (await this.deliveryLog(id, deliveryId))[0];
  }

  private async deliveryLog(endpointId: string, deliveryId: string | null): Promise<DeliveryDto[]> {
    const rows = await this.repository.deliveryLog(endpointId, deliveryId, DELIVERY_LOG_SIZE);
    return rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      attempts: row.attempts.map((attempt) => ({
        ...attempt,
        attemptedAt: new Date(attempt.attemptedAt).toISOString(),
        nextAttemptAt: attempt.nextAttemptAt === null ? null : new Date(attempt.nextAttemptAt).toISOString(),
      })),
    }));
  }

  private async requireOwn(userId: string, id: string): Promise<void> {
    if (!(await this.repository.ownsEndpoint(userId, id))) throw new ApiError('WEBHOOK_NOT_FOUND');
  }
}
