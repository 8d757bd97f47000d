import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import { ERROR_CODES } from './error-codes';
import { Metrics } from '../metrics/metrics';
import { mapFrameworkError } from './map-framework-error';

/** The only exception filter: every error leaves as exactly {code, message}. */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  constructor(private readonly metrics: Metrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, code, message } = this.toContract(exception);
    if (code === 'QUOTA_EXCEEDED') this.metrics.countQuotaRefusal();
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ code, message });
  }

  private toContract(exception: unknown): { status: number; code: string; message: string } {
    if (exception instanceof ApiError) {
      return { status: exception.status, code: exception.code, message: exception.publicMessage };
    }
    const status = exception instanceof HttpException ? exception.getStatus() : undefined;
    const cause = exception instanceof HttpException ? exception.cause : exception;
    const fastifyCode = (cause as { code?: unknown } | undefined)?.code;
    const mapped = mapFrameworkError(status, typeof fastifyCode === 'string' ? fastifyCode : undefined);
    if (mapped) {
      const { status: mappedStatus, message } = ERROR_CODES[mapped.code];
      return { status: mappedStatus, code: mapped.code, message: mapped.message ?? message };
    }
    this.logger.error(
      exception instanceof Error ? exception.stack ?? exception.message : String(exception),
    );
    return { status: 500, code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.message };
  }
}
