import { Controller, Get, Logger } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';
import { describeUnreadiness } from './describe-unreadiness';
import { ReadinessProbe } from './readiness-probe';
import { countLiveWorkers } from './worker-heartbeat';

/** Probes for operators and orchestrators; not part of the partner API, so no key and not in the docs. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisStore,
    private readonly config: AppConfig,
    private readonly pipeline: ReadinessProbe,
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * PostgreSQL and Redis answer (through the same clients and timeouts that requests use, the
   * queue's included) and a worker was seen lately: the API can take traffic. The register
   * breaker's state is shown, not judged: an open breaker still serves cached answers.
   */
  @Get('ready')
  async ready(): Promise<HealthCheckResult> {
    const windowMs = this.config.get('WORKER_HEARTBEAT_TIMEOUT_MS');
    const timeoutMs = this.config.get('DEPENDENCY_TIMEOUT_MS');
    try {
      return await this.health.check([
        () => this.database.pingCheck('database').withTimeout(timeoutMs),
        () =>
          this.indicators
            .check('redis')
            .attempt(async () => void (await Promise.all([this.redis.client.ping(), this.pipeline.pingQueue()])))
            .withTimeout(timeoutMs),
        () =>
          this.indicators
            .check('registerBreaker')
            .attempt(async () => ({ state: await this.pipeline.registerBreakerPhase() }))
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
    } catch (error) {
      const failing = Object.keys((error as { response?: { error?: object } }).response?.error ?? {});
      const message = describeUnreadiness(failing, windowMs);
      this.logger.warn(message);
      throw new ApiError('SERVICE_UNAVAILABLE', message);
    }
  }
}
