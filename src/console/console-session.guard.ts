import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityOrigin } from '../activity/activity-log';
import { keyOrigin } from '../auth/activity-origin';
import { roleMay } from '../auth/key-role';
import { requiredPermission } from '../auth/requires';
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
 * - a change without the session's CSRF token is 403;
 * - a route its key's role does not allow (@Requires) is the forbidden page (403), the API's refusal as a page.
 * The visit is then the route's `@ConsoleSession()`.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly rates: UserRateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.open(context, context.switchToHttp().getRequest(), context.switchToHttp().getResponse());
    return true;
  }

  private async open(context: ExecutionContext, request: FastifyRequest & RequestWithVisit, reply: FastifyReply): Promise<void> {
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
    if (!roleMay(visit.user.role, requiredPermission(this.reflector, context)))
      throw new ConsolePage('forbidden', { role: visit.member?.role ?? visit.user.role }, 403);
  }
}

/** The signed-in visit of a route behind ConsoleSessionGuard. */
export const ConsoleSession = createParamDecorator((_: unknown, context: ExecutionContext): ConsoleVisit => {
  const visit = context.switchToHttp().getRequest<RequestWithVisit>().consoleVisit;
  if (!visit) throw new Error('ConsoleSession used on a route without ConsoleSessionGuard');
  return visit;
});

/** The origin of a change made on a console route, for the activity log: the session's key, over this request. */
export const ConsoleOrigin = createParamDecorator((_: unknown, context: ExecutionContext): ActivityOrigin => {
  const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithVisit>();
  if (!request.consoleVisit) throw new Error('ConsoleOrigin used on a route without ConsoleSessionGuard');
  return keyOrigin(request.consoleVisit.user, request);
});
