import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult } from '@nestjs/terminus';
import { ApiError } from '../errors/api-error';
import { Readiness } from './readiness';

/** Probes for operators and orchestrators; not part of the partner API, so no key and not in the docs. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** The process is up and serving HTTP. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The API can take traffic (Readiness says what that means, and how often it is checked). */
  @Get('ready')
  async ready(): Promise<HealthCheckResult> {
    const answer = await this.readiness.current();
    if (!answer.ready) throw new ApiError('SERVICE_UNAVAILABLE', answer.message);
    return answer.result;
  }
}
