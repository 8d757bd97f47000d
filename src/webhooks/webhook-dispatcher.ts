import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { servedUser } from '../auth/served-user';
import { AppConfig } from '../config/app-config';
import type { StoredEvent } from '../events/events.service';
import { DELIVER_JOB, DeliveryJobData, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { parseRetrySchedule } from './retry-schedule';

/**
 * Turns stored events into deliveries, one per enabled endpoint of the event's user that takes its
 * type, and queues them. Each retry of a delivery is a BullMQ attempt of the same job, so the
 * webhook-id (the event id) never changes.
 */
@Injectable()
export class WebhookDispatcher {
  private readonly schedule: number[];
  private readonly userServed: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJobData>,
    config: AppConfig,
  ) {
    this.schedule = parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE_SECONDS'));
    this.userServed = servedUser('u', config.get('TEST_MODE_ENABLED'));
  }

  /** Delivers each event to every matching endpoint, or only to `endpointId` (a test ping). */
  async dispatch(events: StoredEvent[], endpointId?: string): Promise<string[]> {
    if (events.length === 0) return [];
    const rows = await this.dataSource.query<{ id: string }[]>(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, status, created_at)
       SELECT w.id, e.id, 'PENDING', e.created_at
       FROM events e JOIN webhook_endpoints w ON w.user_id = e.user_id
       WHERE e.id = ANY ($1::uuid[]) AND w.disabled_at IS NULL
         AND (w.id = $2 OR ($2::uuid IS NULL AND e.type = ANY (w.events)))
       ORDER BY e.seq
       RETURNING id`,
      [events.map((event) => event.id), endpointId ?? null],
    );
    await Promise.all(rows.map(({ id }) => this.enqueue(id, id)));
    return rows.map(({ id }) => id);
  }

  /**
   * Queues again every delivery held while its user was disabled (DeliveryProcessor) whose user is enabled
   * now, each with a fresh retry schedule, as a replay has. The worker's one-per-second tick calls it, so a
   * user's deliveries resume within about a second of enable-user. SKIP LOCKED: two ticks never queue one twice.
   */
  async resumeHeld(): Promise<void> {
    const [rows] = await this.dataSource.query<[{ id: string; held_at: Date }[], number]>(
      `WITH resumable AS (
         SELECT d.id, d.held_at FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN users u ON u.id = w.user_id
         WHERE d.held_at IS NOT NULL AND ${this.userServed}
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET held_at = NULL FROM resumable WHERE d.id = resumable.id
       RETURNING d.id, resumable.held_at`,
    );
    // BullMQ job ids may not contain a colon; the time of the hold keeps each resumption's job apart.
    await Promise.all(rows.map(({ id, held_at }) => this.enqueue(id, `${id}-resumed-${held_at.getTime()}`)));
  }

  /** Queues a delivery's attempts from the first delay of the schedule; jobId keeps a replay apart from the original. */
  async enqueue(deliveryId: string, jobId: string): Promise<void> {
    await this.queue.add(
      DELIVER_JOB,
      { deliveryId },
      {
        jobId,
        delay: this.schedule[0] * 1000,
        attempts: this.schedule.length,
        backoff: { type: 'schedule' },
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 7 * 86_400, count: 10_000 },
      },
    );
  }
}
