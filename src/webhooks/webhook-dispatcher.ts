import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
import type { StoredEvent } from '../events/events.service';
import { DELIVER_JOB, DeliveryJobData, OperatorAlert, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { parseRetrySchedule } from './retry-schedule';
import { WebhookRepository } from './webhook.repository';

/**
 * Turns stored events into deliveries, one per enabled endpoint of the event's user that takes its
 * type, and queues them. Each retry of a delivery is a BullMQ attempt of the same job, so the
 * webhook-id (the event id) never changes.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly schedule: number[];

  constructor(
    private readonly repository: WebhookRepository,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJobData>,
    config: AppConfig,
  ) {
    this.schedule = parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE_SECONDS'));
  }

  /** Delivers each event to every matching endpoint, or only to `endpointId` (a test ping). */
  async dispatch(events: StoredEvent[], endpointId?: string): Promise<string[]> {
    if (events.length === 0) return [];
    const ids = await this.repository.insertDeliveries(
      events.map((event) => event.id),
      endpointId ?? null,
    );
    await Promise.all(ids.map((id) => this.enqueue(id, id)));
    return ids;
  }

  /**
   * Queues again every delivery held while its user was disabled (DeliveryProcessor) whose user is enabled
   * now, each with a fresh retry schedule, as a replay has. The worker's one-per-second tick calls it, so a
   * user's deliveries resume within about a second of enable-user. SKIP LOCKED: two ticks never queue one twice.
   */
  async resumeHeld(): Promise<void> {
    const rows = await this.repository.releaseHeld();
    // BullMQ job ids may not contain a colon; the time of the hold keeps each resumption's job apart.
    await Promise.all(rows.map(({ id, heldAt }) => this.enqueue(id, `${id}-resumed-${heldAt.getTime()}`)));
  }

  /**
   * Queues an operator alert for OPERATOR_ALERT_URL, with the deliveries' retry schedule. Raised at most once per
   * episode by the register watch, so one job id per alert.
   */
  async enqueueOperatorAlert(alert: OperatorAlert): Promise<void> {
    await this.add({ deliveryId: alert.id, operatorAlert: alert }, alert.id);
  }

  /** Queues a delivery's attempts from the first delay of the schedule; jobId keeps a replay apart from the original. */
  async enqueue(deliveryId: string, jobId: string): Promise<void> {
    await this.add({ deliveryId }, jobId);
  }

  private async add(data: DeliveryJobData, jobId: string): Promise<void> {
    await this.queue.add(DELIVER_JOB, data, {
      jobId,
      delay: this.schedule[0] * 1000,
      attempts: this.schedule.length,
      backoff: { type: 'schedule' },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 86_400, count: 10_000 },
    });
  }
}
