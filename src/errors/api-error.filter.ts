import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import { Metrics } from '../metrics/metrics';
import { RefusalCounter } from './refusal-counter';
import { unavailableDependency } from './dependency-unavailable';
import { dependencyUnavailableCode, ErrorAnswer, isClientAbort, mapFrameworkError, toErrorAnswer } from './map-framework-error';

/** Sends an error answer: its status and exactly {code, message} as JSON. */
export function sendErrorAnswer(reply: FastifyReply, { status, body }: ErrorAnswer): void {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/** The only exception filter: every error leaves as exactly {code, message}. */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  constructor(
    private readonly metrics: Metrics,
    private readonly refusals: RefusalCounter,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const cause = exception instanceof HttpException ? (exception.cause ?? exception) : exception;
    if (isClientAbort(cause, http.getRequest<FastifyRequest>().raw.socket?.destroyed === true)) {
      // Nobody is left to answer; a disconnecting client is routine, so no stack and no error level.
      this.logger.debug('Client closed the connection before its request was read');
      return;
    }
    const request = http.getRequest<FastifyRequest>();
    const answer = this.toContract(exception, request.id, request.routeOptions.url);
    if (answer.body.code === 'QUOTA_EXCEEDED') this.metrics.countQuotaRefusal();
    this.refusals.count(request, answer.body.code);
    if (exception instanceof ApiError) void reply.headers(exception.headers);
    sendErrorAnswer(reply, answer);
  }

  private toContract(exception: unknown, requestId: string, routeUrl: string | undefined): ErrorAnswer {
    if (exception instanceof ApiError) {
      return { status: exception.status, body: { code: exception.code, message: exception.publicMessage } };
    }
    const status = exception instanceof HttpException ? exception.getStatus() : undefined;
    const cause = exception instanceof HttpException ? exception.cause : exception;
    const fastifyCode = (cause as { code?: unknown } | undefined)?.code;
    const mapped = mapFrameworkError(status, typeof fastifyCode === 'string' ? fastifyCode : undefined);
    if (mapped) return toErrorAnswer(mapped);
    // A 503 wherever it happens (the API key's lookup, a history page, a roster's catch-up with the queue), except
    // where the contract forbids it.
    const unavailable = unavailableDependency(cause);
    if (unavailable) {
      this.logger.warn(`${unavailable} unavailable: ${(cause as Error).message}`, { requestId });
      return toErrorAnswer({ code: dependencyUnavailableCode(routeUrl) });
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception), { requestId });
    return toErrorAnswer({ code: 'INTERNAL_ERROR' });
  }
}
