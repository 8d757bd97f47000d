import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey } from '../auth/api-key-secret';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { cookieHeader, readCookie } from '../console/console-cookies';
import { consoleOrigin, isConsoleOrigin } from '../console/console-origin';
import { newToken, sameToken } from '../console/console-sessions';
import { sessionLimits, SessionLimits, sessionTimeLeftMs } from '../people/session-lifetime';
import { ApiError } from '../errors/api-error';
import { CONSOLE_ORIGIN_MESSAGE } from '../errors/error-codes';
import { RedisStore } from '../redis/redis.module';
import { OperatorAccount, OperatorAccounts } from './operator-accounts';
import { operatorSessionKey, operatorSessionsKey } from './operator-session-keys';

/**
 * The operator console's cookies: their own names, so that a partner's console session is never an operator's (and
 * the other way round), with the partner console's `__Host-` rules (console-cookies.ts).
 */
export const OPERATOR_SESSION_COOKIE = '__Host-lvs_operator';
export const OPERATOR_FORM_COOKIE = '__Host-lvs_operator_form';
export const OPERATOR_SIGN_IN_PATH = '/operator/sign-in';
/** The sign-in limiter's scope of operators' attempts (passwords and passkeys alike). */
export const OPERATOR_SIGN_IN_SCOPE = 'operators';

interface StoredSession {
  operatorId: string;
  signedInAt: number;
  lastSeenAt: number;
  csrfToken: string;
}

/** A request of a signed-in operator. */
export interface OperatorVisit {
  operator: OperatorAccount;
  csrfToken: string;
  sessionId: string;
}

/**
 * Operator sessions in Redis, under the id's hash, with the partner console's lifetimes (CONSOLE_IDLE_MINUTES, CONSOLE_SESSION_HOURS). Each
 * request reads the operator again, so that a changed role holds from the next request; each operator's sessions are
 * listed under them too, so that disabling or removing them ends every one at once (OperatorRoster).
 * Forms before a session (sign-in, an invitation's steps) carry a token from their own cookie.
 */
@Injectable()
export class OperatorSessions {
  private readonly publicUrl: string;
  private readonly limits: SessionLimits;

  constructor(
    private readonly redis: RedisStore,
    private readonly accounts: OperatorAccounts,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.publicUrl = config.get('OPERATOR_PUBLIC_URL');
    this.limits = sessionLimits(config.get('CONSOLE_IDLE_MINUTES'), config.get('CONSOLE_SESSION_HOURS'));
  }

  private sessionKey(sessionId: string): string {
    return operatorSessionKey(this.redis, hashApiKey(sessionId));
  }

  /** A form's CSRF token before a session: the one its cookie holds, or a new one set in a cookie. */
  formToken(request: FastifyRequest, reply: FastifyReply): string {
    const token = readCookie(request.headers.cookie, OPERATOR_FORM_COOKIE) ?? newToken();
    void reply.header('set-cookie', cookieHeader(OPERATOR_FORM_COOKIE, token, 3600));
    return token;
  }

  /** Refuses a change sent from another site, or without Origin: 403. */
  checkOrigin(request: FastifyRequest): void {
    if (!isConsoleOrigin(request.headers.origin, consoleOrigin(this.publicUrl, request))) throw new ApiError('FORBIDDEN', CONSOLE_ORIGIN_MESSAGE);
  }

  /** Refuses a change without the expected token (the session's, or the form cookie's before one): 403. */
  checkChange(request: FastifyRequest, sent: unknown, expected: string | null = readCookie(request.headers.cookie, OPERATOR_FORM_COOKIE)): void {
    this.checkOrigin(request);
    if (expected === null || !sameToken(sent, expected)) throw new ApiError('FORBIDDEN', CONSOLE_ORIGIN_MESSAGE);
  }

  /** Starts a session for the operator (a new id at every sign-in), listed under them, and sets its cookie. */
  async start(reply: FastifyReply, operator: OperatorAccount): Promise<void> {
    const sessionId = newToken();
    const now = this.clock.now().getTime();
    const session: StoredSession = { operatorId: operator.id, signedInAt: now, lastSeenAt: now, csrfToken: newToken() };
    const listKey = operatorSessionsKey(this.redis, operator.id);
    await this.redis.client
      .multi()
      .set(this.sessionKey(sessionId), JSON.stringify(session), 'PX', this.limits.absoluteMs, 'NX')
      .sadd(listKey, hashApiKey(sessionId))
      .pexpire(listKey, this.limits.absoluteMs)
      .exec();
    void reply.header('set-cookie', cookieHeader(OPERATOR_SESSION_COOKIE, sessionId, this.limits.absoluteMs / 1000));
  }

  /** The signed-in operator of this request, the idle time renewed; null (the session ended) when there is none or it is over. */
  async visit(request: FastifyRequest): Promise<OperatorVisit | null> {
    const sessionId = readCookie(request.headers.cookie, OPERATOR_SESSION_COOKIE);
    if (sessionId === null) return null;
    const stored = await this.redis.client.get(this.sessionKey(sessionId));
    if (stored === null) return null;
    const session = JSON.parse(stored) as StoredSession;
    const now = this.clock.now().getTime();
    const timeLeft = sessionTimeLeftMs(this.limits, session.signedInAt, now, now);
    const operator = sessionTimeLeftMs(this.limits, session.signedInAt, session.lastSeenAt, now) > 0 ? await this.accounts.find(session.operatorId) : null;
    if (!operator) {
      await this.redis.client.del(this.sessionKey(sessionId));
      return null;
    }
    await this.redis.client.set(this.sessionKey(sessionId), JSON.stringify({ ...session, lastSeenAt: now }), 'PX', timeLeft, 'XX');
    return { operator, csrfToken: session.csrfToken, sessionId };
  }

  async signOut(reply: FastifyReply, visit: OperatorVisit): Promise<void> {
    await this.redis.client.del(this.sessionKey(visit.sessionId));
    await this.redis.client.srem(operatorSessionsKey(this.redis, visit.operator.id), hashApiKey(visit.sessionId));
    void reply.header('set-cookie', cookieHeader(OPERATOR_SESSION_COOKIE, '', 0));
  }
}
