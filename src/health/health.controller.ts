import { Controller, Get, Logger } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';
import { describeUnreadiness } from './describe-unreadiness';
import { countLiveWorkers } from './worker-heartbeat';

const CHECK_TIMEOUT_MS = 1500;

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
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** PostgreSQL and Redis answer and a worker was seen lately: the API can take traffic. */
  @Get('ready')
  async ready(): Promise<HealthCheckResult> {
    const windowMs = this.config.get('WORKER_HEARTBEAT_TIMEOUT_MS');
    try {
      return await this.health.check([
        () => this.database.pingCheck('database').withTimeout(CHECK_TIMEOUT_MS),
        () =>
          this.indicators
            .check('redis')
            .attempt(async () => void (await this.redis.client.ping()))
            .withTimeout(CHECK_TIMEOUT_MS),
        () =>
          this.indicators
            .check('workers')
            .attempt(async () => {
              const live = await countLiveWorkers(this.redis, windowMs);
              if (live === 0) throw new Error('no worker seen');
              return { live };
            })
            .withTimeout(CHECK_TIMEOUT_MS),
      ]);
    } catch (error) {
      const failing = Object.keys((error as { response?: { error?: object } }).response?.error ?? {});
      const message = describeUnreadiness(failing, windowMs);
      this.logger.warn(message);
      throw new ApiError('SERVICE_UNAVAILABLE', message);
    }
  }
}
