import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DelayedError, Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { DataSource } from 'typeorm';
import { Agent, request } from 'undici';
import { Clock } from '../clock/clock';
import { servedUser } from '../auth/served-user';
import { AppConfig } from '../config/app-config';
import { AppSettings } from '../config/env.schema';
import { readSettings } from '../config/read-settings';
import { webhookBody } from '../events/event-view';
import type { EventType } from '../events/event-types';
import { blockingConnection } from '../redis/redis-clients';
import { UndecryptableSecretError } from '../signing-secrets/secret-box';
import { WebhookSecrets } from '../signing-secrets/webhook-secrets';
import { DELIVERY_TIMEOUT_MS, DeliveryJobData, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { guardedLookup } from './guarded-lookup';
import { AttemptOutcome, judgeAttempt } from './attempt-verdict';
import { EndpointLeases } from './endpoint-leases';
import { delayBeforeNextAttemptMs, parseRetrySchedule } from './retry-schedule';
import { signPayload } from './sign-payload';
import { urlProblem } from './url-guard';
import { busyEndpointDelayMs } from './webhook-limits';

interface DeliveryRow {
  user_id: string;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  disabled_at: Date | null;
  user_disabled: boolean;
  event_id: string;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
  attempts: number;
}

const DELIVERY_CONCURRENCY = 16;

/** Delivery attempts follow WEBHOOK_RETRY_SCHEDULE_SECONDS: the "schedule" backoff every delivery job names. */
function deliveryWorkerOptions(settings: AppSettings): Partial<WorkerOptions> {
  const schedule = parseRetrySchedule(settings.WEBHOOK_RETRY_SCHEDULE_SECONDS);
  return {
    connection: blockingConnection(settings),
    concurrency: DELIVERY_CONCURRENCY,
    settings: { backoffStrategy: (attemptsMade: number) => delayBeforeNextAttemptMs(schedule, attemptsMade) ?? 0 },
  };
}

/**
 * Sends one delivery attempt per job attempt (provided only by WebhooksWorkerModule; the retry
 * schedule is its backoff strategy), and records what judgeAttempt makes of it.
 */
// Options from the validated environment: @nestjs/bullmq builds the Worker before any provider could configure it.
@Processor(WEBHOOK_DELIVERY_QUEUE, deliveryWorkerOptions(readSettings()))
export class DeliveryProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly schedule: number[];
  private readonly allowPrivate: boolean;
  private readonly agent: Agent;
  private readonly userServed: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
    private readonly leases: EndpointLeases,
    config: AppConfig,
  ) {
    super();
    this.schedule = parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE_SECONDS'));
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_URLS');
    this.userServed = servedUser('u', config.get('TEST_MODE_ENABLED'));
    this.agent = new Agent({
      connect: { timeout: DELIVERY_TIMEOUT_MS, ...(this.allowPrivate ? {} : { lookup: guardedLookup(config.get('WEBHOOK_DNS_SERVERS')) }) },
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  async process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    const { deliveryId } = job.data;
    const [row] = await this.dataSource.query<DeliveryRow[]>(
      `SELECT w.user_id, d.endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_until, w.failing_since, w.disabled_at,
              NOT ${this.userServed} AS user_disabled, e.id AS event_id, e.type, e.data, e.created_at,
              (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN users u ON u.id = w.user_id
         JOIN events e ON e.id = d.event_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    if (!row) return; // deleted with its endpoint or event meanwhile
    if (row.disabled_at) {
      await this.setStatus(deliveryId, 'FAILED');
      return;
    }
    if (row.user_disabled) {
      // Held, not failed: no attempt, still PENDING; WebhookDispatcher.resumeHeld queues it again once the user is enabled.
      await this.dataSource.query(`UPDATE webhook_deliveries SET held_at = COALESCE(held_at, $2) WHERE id = $1`, [deliveryId, this.clock.now()]);
      return;
    }
    const holder = job.id ?? deliveryId;
    const untilFirstLeaseEndsMs = await this.leases.take(row.user_id, row.endpoint_id, holder);
    if (untilFirstLeaseEndsMs !== null) {
      // The endpoint has its deliveries in flight: wait for a slot without an attempt and without holding a worker slot.
      await job.moveToDelayed(Date.now() + busyEndpointDelayMs(untilFirstLeaseEndsMs, Math.random()), token);
      throw new DelayedError();
    }
    try {
      await this.attempt(job, deliveryId, row);
    } finally {
      // A release that fails must not turn a recorded attempt into a retry: the lease ends by itself.
      await this.leases.release(row.user_id, row.endpoint_id, holder).catch(() => undefined);
    }
  }

  /** Sends one attempt and records it; throws so that BullMQ retries when the verdict says so. */
  private async attempt(job: Job<DeliveryJobData>, deliveryId: string, row: DeliveryRow): Promise<void> {
    const startedAt = this.clock.now();
    const started = performance.now();
    const outcome = await this.send(row, startedAt);
    const durationMs = Math.round(performance.now() - started);
    const verdict = judgeAttempt({
      outcome,
      startedAt,
      failingSince: row.failing_since,
      schedule: this.schedule,
      attemptsMade: job.attemptsMade,
    });

    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, response_status, duration_ms, error, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          deliveryId,
          row.attempts + 1,
          startedAt,
          outcome.responseStatus,
          durationMs,
          outcome.error,
          verdict.retryInMs === null ? null : new Date(startedAt.getTime() + verdict.retryInMs),
        ],
      );
      await manager.query(`UPDATE webhook_deliveries SET status = $2 WHERE id = $1`, [deliveryId, verdict.deliveryStatus]);
      await manager.query(
        `UPDATE webhook_endpoints SET failing_since = $2,
           disabled_at = CASE WHEN $3::text IS NULL THEN disabled_at ELSE $4 END,
           disabled_reason = coalesce($3, disabled_reason)
         WHERE id = $1`,
        [row.endpoint_id, verdict.failingSince, verdict.disableReason, startedAt],
      );
    });
    if (verdict.delivered) return;
    const reason = `delivery failed: ${outcome.responseStatus ?? outcome.error}`;
    // Thrown so that BullMQ schedules the next attempt (or records the job as failed for good).
    throw verdict.retryInMs === null ? new UnrecoverableError(reason) : new Error(reason);
  }

  private async send(row: DeliveryRow, now: Date): Promise<AttemptOutcome> {
    const problem = urlProblem(row.url, this.allowPrivate);
    if (problem) return { responseStatus: null, error: `url refused: ${problem}`, refused: true };
    let secrets: string[];
    try {
      secrets = this.signingSecrets(row, now);
    } catch (error) {
      if (!(error instanceof UndecryptableSecretError)) throw error;
      // Recorded like any failed attempt, so the delivery ends FAILED (and can be replayed once the keys are fixed).
      return { responseStatus: null, error: error.message, refused: true };
    }
    const body = webhookBody({ type: row.type, createdAt: row.created_at, data: row.data });
    const headers = signPayload(secrets, row.event_id, Math.floor(now.getTime() / 1000), body);
    try {
      // undici's request never follows redirects: a 3xx is an answer, and not a 2xx.
      const response = await request(row.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'licence-verification-webhooks/1' },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body.dump();
      return { responseStatus: response.statusCode, error: null, refused: false };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      const refused = code === 'EBLOCKEDADDRESS';
      return { responseStatus: null, error: refused ? 'url refused: address' : String(code), refused };
    }
  }

  /** The current secret, and the previous one while it still signs. */
  private signingSecrets(row: DeliveryRow, now: Date): string[] {
    const secrets = [this.secrets.open(row.secret)];
    if (row.previous_secret && row.previous_secret_until && row.previous_secret_until > now) {
      secrets.push(this.secrets.open(row.previous_secret));
    }
    return secrets;
  }

  private async setStatus(deliveryId: string, status: 'FAILED'): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET status = $2 WHERE id = $1`, [deliveryId, status]);
  }
}
