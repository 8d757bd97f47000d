import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { evidenceOldestWaitingSeconds } from '../verification-records/evidence-waiting-gauge';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { CanaryStore } from '../lookups/canary-store';
import { numberSubject } from '../lookups/lookup-subject';
import { LookupService } from '../lookups/lookup.service';
import { PageShapeStore } from '../lookups/page-shape-store';
import { Metrics, OperatorAlertType } from '../metrics/metrics';
import { RedisStore } from '../redis/redis.module';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { episodeStep, EpisodeStep, lastedThreshold } from './alert-episode';
import { CanaryAnswer, CanaryReading, judgeCanary } from './canary-verdict';

/** The canaries' lookups wait this long for the register; a lookup still queued then teaches nothing this period. */
const CANARY_WAIT_MS = 60_000;
/** How often the alert conditions are checked. */
const CHECK_EVERY_MS = 1000;
/** The canaries are nobody's lookups: their own name for turns, never charged. */
const CANARY_USER = { userId: 'register-canary', monthlyQuota: 0, mode: 'live' } as const;

/**
 * The worker's watch over the register and the pipeline: the canaries every REGISTER_CANARY_SECONDS, and the alert
 * conditions (new page shapes among them) every second. Every worker runs it; Redis decides which one acts (the canaries' turn, each episode's
 * start and end), so an alert goes out once however many workers there are.
 */
@Injectable()
export class RegisterWatch implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RegisterWatch');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly canaryNumbers: string[];
  private readonly canaryPeriodMs: number;
  private readonly alertsOn: boolean;
  private readonly thresholdsMs: { registerDown: number; backlog: number; evidenceLag: number };
  private busy = { canaries: false, alerts: false };

  constructor(
    private readonly lookups: LookupService,
    private readonly canaries: CanaryStore,
    private readonly pageShapes: PageShapeStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly redis: RedisStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.canaryNumbers = config.get('REGISTER_CANARY_NUMBERS');
    this.canaryPeriodMs = config.get('REGISTER_CANARY_SECONDS') * 1000;
    this.alertsOn = config.get('OPERATOR_ALERT_URL') !== '';
    this.thresholdsMs = {
      registerDown: config.get('ALERT_REGISTER_DOWN_SECONDS') * 1000,
      backlog: config.get('ALERT_BACKLOG_SECONDS') * 1000,
      evidenceLag: config.get('ALERT_EVIDENCE_LAG_SECONDS') * 1000,
    };
  }

  onModuleInit(): void {
    this.metrics.readCanaryDriftFrom(() => this.canaries.drifted());
    // Tried every second, run when this worker wins the period's turn: the first run is at start-up.
    if (this.canaryNumbers.length > 0) this.every(CHECK_EVERY_MS, 'canaries', () => this.canaryTurn());
    this.every(CHECK_EVERY_MS, 'alerts', () => this.checkAlerts());
  }

  onModuleDestroy(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private every(ms: number, name: keyof RegisterWatch['busy'], run: () => Promise<void>): void {
    this.timers.push(
      setInterval(() => {
        if (this.busy[name]) return;
        this.busy[name] = true;
        run()
          .catch((error: unknown) => this.logger.warn(`Register watch (${name}) failed: ${(error as Error).message}`))
          .finally(() => (this.busy[name] = false));
      }, ms),
    );
  }

  /** One worker a period looks the canaries up: the turn is a Redis key that lasts the period. */
  private async canaryTurn(): Promise<void> {
    const won = await this.redis.client.set(this.redis.key('canary:turn'), '1', 'PX', this.canaryPeriodMs, 'NX');
    if (won === 'OK') for (const licenceNumber of this.canaryNumbers) await this.checkCanary(licenceNumber);
  }

  private async checkCanary(licenceNumber: string): Promise<void> {
    const now = this.clock.now();
    const reading = await this.read(licenceNumber);
    const verdict = judgeCanary(await this.canaries.baseline<CanaryAnswer>(licenceNumber), reading, now.toISOString().slice(0, 10));
    switch (verdict.verdict) {
      case 'baseline':
      case 'good':
        await this.canaries.setBaseline(licenceNumber, verdict.answer);
        return;
      case 'failed':
        this.logger.warn(`Register canary ${maskLicenceNumber(licenceNumber)} failed: ${verdict.reason}`);
        if (await this.canaries.recordFailure(licenceNumber, verdict.reason, now)) {
          await this.alert('register.canary_failed', { licenceNumber, reason: verdict.reason });
        }
        return;
      case 'unknown':
        return;
    }
  }

  /** A canary's look: the one road, at re-check priority, uncharged, past the cache. */
  private async read(licenceNumber: string): Promise<CanaryReading> {
    try {
      const answer = await this.lookups.lookup({
        subject: numberSubject(licenceNumber),
        user: CANARY_USER,
        kind: 'recheck',
        deadline: Date.now() + CANARY_WAIT_MS,
        cache: 'bypass',
      });
      return answer.state === 'answered' ? { kind: 'answer', result: answer.result } : { kind: 'no-answer' };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PARSE_ERROR') return { kind: 'parse-error' };
      if (error instanceof ApiError) return { kind: 'no-answer' };
      throw error;
    }
  }

  private async checkAlerts(): Promise<void> {
    // Each new shape was claimed once, by the lookup that read its page; one worker takes each from the list.
    for (let shape = await this.pageShapes.nextToAnnounce(); shape !== null; shape = await this.pageShapes.nextToAnnounce()) {
      await this.alert('register.page_shape_new', { ...shape });
    }

    const nowMs = this.clock.now().getTime();
    const downSince = await this.registerDownSince(nowMs);
    const down = await this.episode('register-down', lastedThreshold(downSince, nowMs, this.thresholdsMs.registerDown));
    if (down === 'start') await this.alert('register.unavailable', { since: new Date(downSince!).toISOString() });
    if (down === 'end') await this.alert('register.recovered', {});

    const backlogSince = await this.lookups.oldestWaitingSince();
    const backlog = await this.episode('backlog', lastedThreshold(backlogSince, nowMs, this.thresholdsMs.backlog));
    if (backlog)
      await this.alert('queue.backlog', backlog === 'start' ? { state: 'started', since: new Date(backlogSince!).toISOString() } : { state: 'ended' });

    const lagSeconds = await evidenceOldestWaitingSeconds(this.redis);
    const lag = await this.episode('evidence-lag', lagSeconds * 1000 >= this.thresholdsMs.evidenceLag);
    if (lag) await this.alert('evidence.drain_lagging', lag === 'start' ? { state: 'started', oldestWaitingSeconds: lagSeconds } : { state: 'ended' });
  }

  /** Since when the breaker has not been closed (epoch ms, kept in Redis for every worker), null while closed. */
  private async registerDownSince(nowMs: number): Promise<number | null> {
    const key = this.redis.key('alerts:register-down-since');
    if ((await this.lookups.registerPhase()) === 'closed') {
      await this.redis.client.del(key);
      return null;
    }
    await this.redis.client.set(key, String(nowMs), 'NX');
    return Number(await this.redis.client.get(key));
  }

  /** The episode step for a condition, taken by one worker only: the start sets the episode's key, the end deletes it. */
  private async episode(name: string, bad: boolean): Promise<EpisodeStep> {
    const key = this.redis.key('alerts:episode', name);
    const step = episodeStep((await this.redis.client.exists(key)) === 1, bad);
    if (step === 'start') return (await this.redis.client.set(key, String(this.clock.now().getTime()), 'NX')) === 'OK' ? step : null;
    if (step === 'end') return (await this.redis.client.del(key)) === 1 ? step : null;
    return null;
  }

  private async alert(type: OperatorAlertType, data: Record<string, unknown>): Promise<void> {
    this.logger.warn(`Operator alert ${type}`);
    if (!this.alertsOn) return;
    await this.dispatcher.enqueueOperatorAlert({ id: `alert_${randomUUID()}`, type, createdAt: this.clock.now().toISOString(), data });
  }
}
