import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { Agent, request } from 'undici';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { webhookBody } from '../events/event-view';
import { Metrics } from '../metrics/metrics';
import { QueueWorker, workerConnection } from '../redis/queue-worker';
import { UndecryptableSecretError } from '../secrets/secret-box';
import { WebhookSecrets } from '../secrets/webhook-secrets';
import { DELIVERY_TIMEOUT_MS, DeliveryJobData, OperatorAlert, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { guardedLookup } from '../network/guarded-lookup';
import { AttemptOutcome, judgeAttempt } from './attempt-verdict';
import { EndpointLeases } from './endpoint-leases';
import { delayBeforeNextAttemptMs, parseRetrySchedule } from './retry-schedule';
import { signPayload } from './sign-payload';
import { urlProblem } from '../network/url-guard';
import { busyEndpointDelayMs } from './webhook-limits';
import { DeliveryToSend, WebhookRepository } from './webhook.repository';

const DELIVERY_CONCURRENCY = 16;

/** Delivery attempts follow WEBHOOK_RETRY_SCHEDULE_SECONDS: the "schedule" backoff every delivery job names. */
function deliveryWorkerOptions(config: AppConfig): WorkerOptions {
  const schedule = parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE_SECONDS'));
  return {
    ...workerConnection(config),
    concurrency: DELIVERY_CONCURRENCY,
    settings: { backoffStrategy: (attemptsMade: number) => delayBeforeNextAttemptMs(schedule, attemptsMade) ?? 0 },
  };
}

/**
 * Sends one delivery attempt per job attempt (provided only by WebhooksWorkerModule; the retry
 * schedule is its backoff strategy), and records what judgeAttempt makes of it.
 */
@Injectable()
export class DeliveryProcessor extends QueueWorker<DeliveryJobData, void> implements OnApplicationShutdown {
  private readonly schedule: number[];
  private readonly allowPrivate: boolean;
  private readonly agent: Agent;
  /** OPERATOR_ALERT_URL is the operator's own address, so it goes without the guard that partners' URLs need. */
  private readonly alertAgent: Agent;
  private readonly alertUrl: string;
  private readonly alertSecret: string;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
    private readonly leases: EndpointLeases,
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    super(WEBHOOK_DELIVERY_QUEUE, deliveryWorkerOptions(config), config.get('SHUTDOWN_GRACE_MS'));
    this.schedule = parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE_SECONDS'));
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_URLS');
    this.agent = new Agent({
      connect: { timeout: DELIVERY_TIMEOUT_MS, ...(this.allowPrivate ? {} : { lookup: guardedLookup(config.get('WEBHOOK_DNS_SERVERS')) }) },
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
    });
    this.alertAgent = new Agent({ connect: { timeout: DELIVERY_TIMEOUT_MS }, headersTimeout: DELIVERY_TIMEOUT_MS, bodyTimeout: DELIVERY_TIMEOUT_MS });
    this.alertUrl = config.get('OPERATOR_ALERT_URL');
    this.alertSecret = config.get('OPERATOR_ALERT_SECRET');
  }

  /** After the worker's active deliveries finished (beforeApplicationShutdown), so that none is cut. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.agent.close(), this.alertAgent.close()]);
  }

  async process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    const { deliveryId, operatorAlert } = job.data;
    if (operatorAlert) return this.sendAlert(job, operatorAlert);
    const row = await this.repository.deliveryToSend(deliveryId);
    if (!row) return; // deleted with its endpoint or event meanwhile
    if (row.disabledAt) {
      await this.repository.setDeliveryStatus(deliveryId, 'FAILED');
      return;
    }
    if (row.userDisabled) {
      // Held, not failed: no attempt, still PENDING; WebhookDispatcher.resumeHeld queues it again once the user is enabled.
      await this.repository.hold(deliveryId, this.clock.now());
      return;
    }
    const holder = job.id ?? deliveryId;
    const untilFirstLeaseEndsMs = await this.leases.take(row.userId, row.endpointId, holder);
    if (untilFirstLeaseEndsMs !== null) {
      // The endpoint has its deliveries in flight: wait for a slot without an attempt and without holding a worker slot.
      await job.moveToDelayed(Date.now() + busyEndpointDelayMs(untilFirstLeaseEndsMs, Math.random()), token);
      throw new DelayedError();
    }
    try {
      await this.attempt(job, deliveryId, row);
    } finally {
      // A release that fails must not turn a recorded attempt into a retry: the lease ends by itself.
      await this.leases.release(row.userId, row.endpointId, holder).catch(() => undefined);
    }
  }

  /** Sends one attempt and records it; throws so that BullMQ retries when the verdict says so. */
  private async attempt(job: Job<DeliveryJobData>, deliveryId: string, row: DeliveryToSend): Promise<void> {
    const startedAt = this.clock.now();
    const started = performance.now();
    const outcome = await this.send(row, startedAt);
    const durationMs = Math.round(performance.now() - started);
    const verdict = judgeAttempt({
      outcome,
      startedAt,
      failingSince: row.failingSince,
      schedule: this.schedule,
      attemptsMade: job.attemptsMade,
    });

    await this.repository.recordAttempt({
      deliveryId,
      endpointId: row.endpointId,
      attempt: row.attempts + 1,
      attemptedAt: startedAt,
      responseStatus: outcome.responseStatus,
      durationMs,
      error: outcome.error,
      nextAttemptAt: verdict.retryInMs === null ? null : new Date(startedAt.getTime() + verdict.retryInMs),
      deliveryStatus: verdict.deliveryStatus,
      failingSince: verdict.failingSince,
      disableReason: verdict.disableReason,
    });
    if (verdict.delivered) return;
    const reason = `delivery failed: ${outcome.responseStatus ?? outcome.error}`;
    // Thrown so that BullMQ schedules the next attempt (or records the job as failed for good).
    throw verdict.retryInMs === null ? new UnrecoverableError(reason) : new Error(reason);
  }

  /**
   * One attempt of an operator alert, judged as a delivery's (with no endpoint to disable), so that it is retried on
   * the same schedule. An alert raised while OPERATOR_ALERT_URL was set and found after it was unset goes nowhere.
   */
  private async sendAlert(job: Job<DeliveryJobData>, alert: OperatorAlert): Promise<void> {
    if (!this.alertUrl) return;
    const startedAt = this.clock.now();
    const body = JSON.stringify({ type: alert.type, timestamp: alert.createdAt, data: alert.data });
    const outcome = await this.post(this.alertUrl, this.alertAgent, [this.alertSecret], alert.id, startedAt, body);
    const verdict = judgeAttempt({ outcome, startedAt, failingSince: null, schedule: this.schedule, attemptsMade: job.attemptsMade });
    if (verdict.delivered) {
      this.metrics.countAlertSent(alert.type);
      return;
    }
    const reason = `operator alert ${alert.type} failed: ${outcome.responseStatus ?? outcome.error}`;
    throw verdict.retryInMs === null ? new UnrecoverableError(reason) : new Error(reason);
  }

  private async send(row: DeliveryToSend, now: Date): Promise<AttemptOutcome> {
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
    const body = webhookBody({ type: row.type, createdAt: row.createdAt, data: row.data }, row.mode);
    return this.post(row.url, this.agent, secrets, row.eventId, now, body);
  }

  /** Posts one signed attempt (Standard Webhooks headers) and tells what came back. */
  private async post(url: string, agent: Agent, secrets: string[], id: string, now: Date, body: string): Promise<AttemptOutcome> {
    const headers = signPayload(secrets, id, Math.floor(now.getTime() / 1000), body);
    try {
      // undici's request never follows redirects: a 3xx is an answer, and not a 2xx.
      const response = await request(url, {
        method: 'POST',
        dispatcher: agent,
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
  private signingSecrets(row: DeliveryToSend, now: Date): string[] {
    const secrets = [this.secrets.open(row.secret)];
    if (row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now) {
      secrets.push(this.secrets.open(row.previousSecret));
    }
    return secrets;
  }
}
