import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsolePage, ConsoleRedirect } from '../console/console-answers';
import { sentToken } from '../console/console-session.guard';
import { waitInWords } from '../console/wait-in-words';
import { ApiError } from '../errors/api-error';
import { RejectedBody } from '../http/decode-request-body';
import { rateLimitFields } from '../rate-limit/rate-limit-fields';
import { UserRateLimiter } from '../rate-limit/user-rate-limiter';
import { OperatorActor } from './operator-actor';
import { OperatorRequest } from './operator-actions.service';
import { OPERATOR_SIGN_IN_PATH, OperatorSessions, OperatorVisit } from './operator-sessions';

export interface RequestWithOperator {
  operatorVisit?: OperatorVisit;
}

const READS = new Set(['GET', 'HEAD']);
const OWN_ACCOUNT = 'operator-own-account';

/** A change of the operator's own account (their passkeys, signing out), which a `support` operator may make too. */
export const OwnAccount = () => SetMetadata(OWN_ACCOUNT, true);

/**
 * Every operator page behind a session, in the partner console's order: a body the reader refused is 400; a change
 * from another origin 403; without a session, the sign-in page; past the operator's rate (the partners' default
 * rate, a bucket per operator, as the partner console takes one per partner) the rate-limited page (429); a change
 * without the session's CSRF token 403; and a change by a `support` operator, who may read every page and change
 * nothing but their own account (OwnAccount), the forbidden page (403).
 */
@Injectable()
export class OperatorSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: OperatorSessions,
    private readonly rates: UserRateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithOperator>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (request.body instanceof RejectedBody) throw new ApiError('VALIDATION_ERROR', request.body.reason);
    const changes = !READS.has(request.method);
    if (changes) this.sessions.checkOrigin(request);
    const visit = await this.sessions.visit(request);
    if (!visit) throw new ConsoleRedirect(OPERATOR_SIGN_IN_PATH);
    request.operatorVisit = visit;
    const decision = await this.rates.take(`operator:${visit.operator.id}`, null);
    void reply.headers(rateLimitFields(decision.policy, decision));
    if (!decision.admitted) {
      const wait = decision.secondsToNextToken;
      throw new ConsolePage('rate-limited', { wait: waitInWords(wait) }, 429, { 'retry-after': String(wait) });
    }
    if (!changes) return true;
    this.sessions.checkChange(request, sentToken(request), visit.csrfToken);
    const ownAccount = this.reflector.get<boolean | undefined>(OWN_ACCOUNT, context.getHandler()) === true;
    if (visit.operator.role !== 'operator' && !ownAccount) throw new ConsolePage('forbidden', { role: visit.operator.role }, 403);
    return true;
  }
}

function visitOf(context: ExecutionContext): FastifyRequest & Required<RequestWithOperator> {
  const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithOperator>();
  if (!request.operatorVisit) throw new Error('An operator page without OperatorSessionGuard');
  return request as FastifyRequest & Required<RequestWithOperator>;
}

export const OperatorSession = createParamDecorator((_: unknown, context: ExecutionContext): OperatorVisit => visitOf(context).operatorVisit);

/** A change asked on an operator page: the signed-in operator, from this request's address and browser, and the form's reason. */
export const OperatorAsks = createParamDecorator((_: unknown, context: ExecutionContext): OperatorRequest => {
  const request = visitOf(context);
  const userAgent = request.headers['user-agent'];
  const actor: OperatorActor = {
    type: 'operator',
    id: request.operatorVisit.operator.id,
    source: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 256) : null,
  };
  const reason = (request.body as { reason?: unknown } | undefined)?.reason;
  return { actor, reason: typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : null };
});
