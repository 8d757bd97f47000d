import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { RejectedBody } from '../http/decode-request-body';
import { rateLimitFields } from '../rate-limit/rate-limit-fields';
import { UserRateLimiter } from '../rate-limit/user-rate-limiter';
import { ConsolePage, ConsoleRedirect } from './console-answers';
import { ConsoleSessions, ConsoleVisit, SIGN_IN_PATH } from './console-sessions';
import { waitInWords } from './wait-in-words';

export interface RequestWithVisit {
  consoleVisit?: ConsoleVisit;
}

/** Methods that only read; every other one changes something and must prove it came from a console page. */
const READS = new Set(['GET', 'HEAD']);

/** The CSRF token a change carries: a form's _csrf field, or the X-CSRF-Token header of the page script's uploads. */
export function sentToken(request: FastifyRequest): unknown {
  const header = request.headers['x-csrf-token'];
  if (header !== undefined) return header;
  const body = request.body as { _csrf?: unknown } | null | undefined;
  return typeof body === 'object' && body !== null ? body._csrf : undefined;
}

/**
 * Every console route behind a session. In this order:
 * - a body the reader refused is 400, as before any other check (an oversized upload is never read on);
 * - a change from another origin, or without Origin, is 403;
 * - without a live session, a redirect to the sign-in page;
 * - the request takes a token from the user's own bucket, the one its API keys draw from, so a browser is no
 *   way around the API's rate limit: past it, the rate-limited page (429);
 * - a change without the session's CSRF token is 403.
 * The visit is then the route's `@ConsoleSession()`.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly rates: UserRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.open(context.switchToHttp().getRequest(), context.switchToHttp().getResponse());
    return true;
  }

  private async open(request: FastifyRequest & RequestWithVisit, reply: FastifyReply): Promise<void> {
    if (request.body instanceof RejectedBody) throw new ApiError('VALIDATION_ERROR', request.body.reason);
    const changes = !READS.has(request.method);
    if (changes) this.sessions.checkOrigin(request);
    const visit = await this.sessions.visit(request);
    if (!visit) throw new ConsoleRedirect(SIGN_IN_PATH);
    request.consoleVisit = visit;
    const decision = await this.rates.take(visit.user.userId, visit.rateLimitPerSecond);
    void reply.headers(rateLimitFields(decision.policy, decision));
    if (!decision.admitted) {
      const wait = decision.secondsToNextToken;
      throw new ConsolePage('rate-limited', { wait: waitInWords(wait) }, 429, { 'retry-after': String(wait) });
    }
    if (changes) this.sessions.checkChange(request, sentToken(request), visit.csrfToken);
  }
}

/** The signed-in visit of a route behind ConsoleSessionGuard. */
export const ConsoleSession = createParamDecorator((_: unknown, context: ExecutionContext): ConsoleVisit => {
  const visit = context.switchToHttp().getRequest<RequestWithVisit>().consoleVisit;
  if (!visit) throw new Error('ConsoleSession used on a route without ConsoleSessionGuard');
  return visit;
});
