import { Injectable, Logger } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { performance } from 'node:perf_hooks';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { describeUnreadiness } from './describe-unreadiness';
import { isReadinessCheckFresh } from './readiness-freshness';
import { ReadinessProbe } from './readiness-probe';
import { registerHealth } from './register-health';
import { countLiveWorkers } from './worker-heartbeat';

export type ReadinessAnswer = { ready: true; result: HealthCheckResult } | { ready: false; message: string };

/**
 * The API's readiness: PostgreSQL and Redis answer (through the same clients and timeouts that requests
 * use, the queue's included) and a worker was seen lately. The register is shown (registerHealth), not
 * judged: with the breaker open it is degraded, and cached answers are still served. One check serves every probe for a second
 * (isReadinessCheckFresh), and probes arriving while it runs wait for it, so probes cost no more than
 * one round of dependency calls a second however often they come.
 */
@Injectable()
export class Readiness {
  private readonly logger = new Logger('Health');
  private latest: { startedAtMs: number; answer: Promise<ReadinessAnswer> } | undefined;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisStore,
    private readonly config: AppConfig,
    private readonly pipeline: ReadinessProbe,
  ) {}

  current(): Promise<ReadinessAnswer> {
    const now = performance.now();
    if (!isReadinessCheckFresh(this.latest?.startedAtMs, now)) this.latest = { startedAtMs: now, answer: this.check() };
    return this.latest!.answer;
  }

  /** Never rejects: a failing part is an answer, not an error. */
  private async check(): Promise<ReadinessAnswer> {
    const windowMs = this.config.get('WORKER_HEARTBEAT_TIMEOUT_MS');
    const timeoutMs = this.config.get('DEPENDENCY_TIMEOUT_MS');
    try {
      const result = await this.health.check([
        () => this.database.pingCheck('database').withTimeout(timeoutMs),
        () =>
          this.indicators
            .check('redis')
            .attempt(async () => void (await Promise.all([this.redis.client.ping(), this.pipeline.pingQueue()])))
            .withTimeout(timeoutMs),
        () =>
          this.indicators
            .check('registerBreaker')
            .attempt(async () => {
              const [phase, drift] = await Promise.all([this.pipeline.registerBreakerPhase(), this.pipeline.registerDrift()]);
              return registerHealth(phase, drift);
            })
            .withTimeout(timeoutMs),
        () =>
          this.indicators
            .check('workers')
            .attempt(async () => {
              const live = await countLiveWorkers(this.redis, windowMs);
              if (live === 0) throw new Error('no worker seen');
              return { live };
            })
            .withTimeout(timeoutMs),
      ]);
      return { ready: true, result };
    } catch (error) {
      const failing = Object.keys((error as { response?: { error?: object } }).response?.error ?? {});
      const message = describeUnreadiness(failing, windowMs);
      this.logger.warn(message);
      return { ready: false, message };
    }
  }
}
