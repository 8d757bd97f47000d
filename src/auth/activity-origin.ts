import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ActivityOrigin } from '../activity/activity-log';
import { AuthenticatedUser, RequestWithUser } from './authenticated-user';

/** The longest User-Agent the log keeps: enough to tell clients apart, too short to fill the log. */
const USER_AGENT_MAX = 256;

/** A change made by `actor` over this request: where it came from, and the client's User-Agent, cut short. */
export function requestOrigin(actor: ActivityOrigin['actor'], request: Pick<FastifyRequest, 'ip' | 'headers'>): ActivityOrigin {
  const userAgent = request.headers['user-agent'];
  return { actor, clientAddress: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX) : null };
}

/**
 * A change made by this caller, over this request: an API call or a console session signed in with a key (the
 * key), or a member's console session (the member).
 */
export function keyOrigin(user: AuthenticatedUser, request: Pick<FastifyRequest, 'ip' | 'headers'>): ActivityOrigin {
  return requestOrigin(user.memberId !== undefined ? { type: 'member', id: user.memberId } : { type: 'key', id: user.keyId }, request);
}

/** The origin of a change made on a route behind ApiKeyGuard, for the activity log. */
export const KeyOrigin = createParamDecorator((_: unknown, context: ExecutionContext): ActivityOrigin => {
  const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithUser>();
  if (!request.authenticatedUser) throw new Error('KeyOrigin used on a route without ApiKeyGuard');
  return keyOrigin(request.authenticatedUser, request);
});
