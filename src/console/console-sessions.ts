import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashApiKey } from '../auth/api-key-secret';
import { ApiKeyAuthenticator } from '../auth/api-key-authenticator';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { CONSOLE_ORIGIN_MESSAGE } from '../errors/error-codes';
import { clientGroup } from '../rate-limit/client-group';
import { RedisStore } from '../redis/redis.module';
import { cookieHeader, readCookie, SESSION_COOKIE, SIGN_IN_COOKIE } from './console-cookies';
import { consoleOrigin, isConsoleOrigin } from './console-origin';
import { SESSION_ABSOLUTE_MS, sessionTimeLeftMs } from './session-lifetime';

/** What Redis keeps of a session: the key's hash (never the key), when it began and was last used, its CSRF token. */
interface StoredSession {
  keyHash: string;
  signedInAt: number;
  lastSeenAt: number;
  csrfToken: string;
}

/** A request of a signed-in console user. */
export interface ConsoleVisit {
  user: AuthenticatedUser;
  /** the user's own request rate, null for the default: the console draws on the same bucket as its API keys */
  rateLimitPerSecond: number | null;
  csrfToken: string;
  sessionId: string;
}

export const FAILED_SIGN_INS_PER_MINUTE = 10;
export const SIGN_IN_PATH = '/console/sign-in';

export const newToken = (): string => randomBytes(32).toString('base64url');

export function sameToken(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/**
 * Console sessions in Redis. The cookie holds a random id; Redis holds, under the id's hash, the API key's hash.
 * Every request authenticates that hash again through the API's own authenticator, so a key that is revoked or
 * expired (or whatever else the API guard refuses) ends its sessions at their next request.
 */
@Injectable()
export class ConsoleSessions {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly redis: RedisStore,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.publicBaseUrl = config.get('PUBLIC_BASE_URL');
  }

  private sessionKey(sessionId: string): string {
    return this.redis.key('console-session', hashApiKey(sessionId));
  }

  /** Failed sign-ins are counted per client group, an IPv6 client by its /64. */
  private failuresKey(address: string): string {
    return this.redis.key('console-sign-in-failures', clientGroup(address), String(Math.floor(this.clock.now().getTime() / 60_000)));
  }

  private setCookie(reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
    void reply.header('set-cookie', cookieHeader(name, value, maxAgeSeconds));
  }

  /** The sign-in form's CSRF token: the one its cookie already holds, or a new one set in a cookie. */
  signInToken(request: FastifyRequest, reply: FastifyReply): string {
    const token = readCookie(request.headers.cookie, SIGN_IN_COOKIE) ?? newToken();
    this.setCookie(reply, SIGN_IN_COOKIE, token, 3600);
    return token;
  }

  /** Refuses a state-changing request sent from another site, or without Origin: 403. */
  checkOrigin(request: FastifyRequest): void {
    if (!isConsoleOrigin(request.headers.origin, consoleOrigin(this.publicBaseUrl, request))) throw new ApiError('FORBIDDEN', CONSOLE_ORIGIN_MESSAGE);
  }

  /** Refuses a state-changing request that did not come from the console's own page with its token: 403. */
  checkChange(request: FastifyRequest, sentToken: unknown, expectedToken: string | null): void {
    this.checkOrigin(request);
    if (expectedToken === null || !sameToken(sentToken, expectedToken)) throw new ApiError('FORBIDDEN', CONSOLE_ORIGIN_MESSAGE);
  }

  /**
   * Checks the sign-in form's origin and token (403), then counts the attempt against the address's failures in
   * this minute before deciding (429 beyond the limit): counting first, in one atomic increment, means concurrent
   * attempts cannot all read a count under the limit. A valid key then starts a session and takes its count back;
   * an invalid one leaves it counted as a failure.
   */
  async signIn(request: FastifyRequest, reply: FastifyReply, sentToken: unknown, plainKey: string): Promise<boolean> {
    this.checkChange(request, sentToken, readCookie(request.headers.cookie, SIGN_IN_COOKIE));
    const failuresKey = this.failuresKey(request.ip);
    const [[, attempts]] = (await this.redis.client.multi().incr(failuresKey).expire(failuresKey, 60).exec()) as [[Error | null, number]];
    if (attempts > FAILED_SIGN_INS_PER_MINUTE) throw new ApiError('TOO_MANY_SIGN_INS');
    const user = await this.authenticator.authenticate(plainKey);
    if (!user) return false;
    await this.redis.client.decr(failuresKey);
    const sessionId = newToken();
    const now = this.clock.now().getTime();
    await this.save(sessionId, { keyHash: hashApiKey(plainKey), signedInAt: now, lastSeenAt: now, csrfToken: newToken() }, 'NX');
    this.setCookie(reply, SESSION_COOKIE, sessionId, SESSION_ABSOLUTE_MS / 1000);
    return true;
  }

  /** Whether this request belongs to a live session whose key still authenticates; renews and ends nothing. */
  async hasLiveSession(request: FastifyRequest): Promise<boolean> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (sessionId === null) return false;
    const stored = await this.redis.client.get(this.sessionKey(sessionId));
    if (stored === null) return false;
    const session = JSON.parse(stored) as StoredSession;
    if (sessionTimeLeftMs(session.signedInAt, session.lastSeenAt, this.clock.now().getTime()) <= 0) return false;
    return (await this.authenticator.holderOfHash(session.keyHash)) !== null;
  }

  /**
   * The signed-in user of this request, with the session's idle time renewed; null (and the session ended) when
   * there is none, it is over, or its key no longer authenticates.
   */
  async visit(request: FastifyRequest): Promise<ConsoleVisit | null> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (sessionId === null) return null;
    const stored = await this.redis.client.get(this.sessionKey(sessionId));
    if (stored === null) return null;
    const session = JSON.parse(stored) as StoredSession;
    const now = this.clock.now().getTime();
    const holder = sessionTimeLeftMs(session.signedInAt, session.lastSeenAt, now) > 0 ? await this.authenticator.holderOfHash(session.keyHash) : null;
    if (!holder) {
      await this.end(sessionId);
      return null;
    }
    // Renewed only while it exists: a request that read the session before a sign-out never writes it back.
    await this.save(sessionId, { ...session, lastSeenAt: now }, 'XX');
    return { user: holder.user, rateLimitPerSecond: holder.rateLimitPerSecond, csrfToken: session.csrfToken, sessionId };
  }

  /**
   * Stores a session for as long as it may live (Redis drops it then, even if no request ever comes): a new one
   * (NX), or one that still exists (XX), so that an ended session stays ended.
   */
  private async save(sessionId: string, session: StoredSession, when: 'NX' | 'XX'): Promise<void> {
    const timeLeft = sessionTimeLeftMs(session.signedInAt, session.lastSeenAt, session.lastSeenAt);
    const key = this.sessionKey(sessionId);
    if (when === 'NX') await this.redis.client.set(key, JSON.stringify(session), 'PX', timeLeft, 'NX');
    else await this.redis.client.set(key, JSON.stringify(session), 'PX', timeLeft, 'XX');
  }

  /** Ends a session on the server and tells the browser to drop its cookie. */
  async signOut(request: FastifyRequest, reply: FastifyReply, visit: ConsoleVisit): Promise<void> {
    await this.end(visit.sessionId);
    this.setCookie(reply, SESSION_COOKIE, '', 0);
  }

  private async end(sessionId: string): Promise<void> {
    await this.redis.client.del(this.sessionKey(sessionId));
  }
}
