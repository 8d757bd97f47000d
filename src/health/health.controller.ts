import { Controller, Get, Logger } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiError } from '../errors/api-error';
import { RedisStore } from '../redis/redis.module';

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
  ) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** PostgreSQL and Redis answer: the API can take traffic. */
  @Get('ready')
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database').withTimeout(CHECK_TIMEOUT_MS),
        () =>
          this.indicators
            .check('redis')
            .attempt(async () => void (await this.redis.client.ping()))
            .withTimeout(CHECK_TIMEOUT_MS),
      ]);
    } catch (error) {
      this.logger.warn(`Not ready: ${JSON.stringify((error as { response?: unknown }).response ?? String(error))}`);
      throw new ApiError('SERVICE_UNAVAILABLE', 'The service cannot reach its database or Redis; try again later');
    }
  }
}
