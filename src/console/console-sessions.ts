import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ActivityOrigin } from '../activity/activity-log';
import { requestOrigin } from '../auth/activity-origin';
import { hashApiKey } from '../auth/api-key-secret';
import { ApiKeyAuthenticator } from '../auth/api-key-authenticator';
import { AuthenticatedUser } from '../auth/authenticated-user';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { CONSOLE_ORIGIN_MESSAGE, CONSOLE_SIDE_MESSAGES } from '../errors/error-codes';
import { MemberSso, SingleSignOnRequired } from '../members/member-sso.service';
import { consoleSessionKey, MemberSessions, memberSessionsKey } from '../members/member-sessions';
import { MemberRow } from '../members/members.repository';
import { MembersService } from '../members/members.service';
import { sessionLimits, SessionLimits, sessionTimeLeftMs } from '../people/session-lifetime';
import { SignInLimiter } from '../people/sign-in-limiter';
import { clientGroup } from '../rate-limit/client-group';
import { RedisStore } from '../redis/redis.module';
import { cookieHeader, readCookie, SESSION_COOKIE, SIGN_IN_COOKIE } from './console-cookies';
import { consoleOrigin, isConsoleOrigin } from './console-origin';
import { keySignInAllowed } from './key-sign-in';
import { offeredSide, sideSwitchRefusal } from './console-side';

/**
 * Who a session is: an API key (its hash, never the key), or a member (their id) and the side of the account they
 * work on (absent: live), which the Test mode switch sets.
 */
type SessionHolder = { keyHash: string } | { memberId: string; side?: KeyMode };

/** What Redis keeps of a session: its holder, when it began and was last used, its CSRF token, where it signed in from. */
type StoredSession = SessionHolder & {
  signedInAt: number;
  lastSeenAt: number;
  csrfToken: string;
  clientAddress: string;
  userAgent: string | null;
};

/** A request of a signed-in console user. */
export interface ConsoleVisit {
  user: AuthenticatedUser;
  /** the signed-in member; null for a session signed in with an API key */
  member: MemberRow | null;
  /** the user's own request rate, null for the default: the console draws on the same bucket as its API keys */
  rateLimitPerSecond: number | null;
  csrfToken: string;
  sessionId: string;
  /** the side the Test mode switch offers to move to; null: no switch (a key's session, or test mode off) */
  offeredSide: KeyMode | null;
}

/** One of a member's sessions, as their Your account page lists it. */
export interface ListedSession {
  /** the hash of the session's id, which names it in forms without giving it away */
  handle: string;
  signedInAt: string;
  lastSeenAt: string;
  clientAddress: string;
  userAgent: string | null;
  current: boolean;
}

export const FAILED_SIGN_INS_PER_MINUTE = 10;
export const SIGN_IN_PATH = '/console/sign-in';
/** How long the second step of a member's sign-in waits for its code after the password proved right. */
const SECOND_FACTOR_WAIT_MS = 5 * 60_000;
/** The limiter's scope of members' sign-ins: a password, a code and a passkey count against the same limits. */
export const MEMBER_SCOPE = 'member';

export const newToken = (): string => randomBytes(32).toString('base64url');

export function sameToken(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/**
 * Console sessions in Redis. The cookie holds a random id; Redis holds, under the id's hash, who the session is:
 * an API key's hash, authenticated again on every request through the API's own authenticator (a revoked or
 * expired key ends its sessions at their next request), or a member, read again on every request (a member
 * disabled or removed, or whose account is disabled, ends theirs likewise). Each member's sessions are also listed
 * under the member, so that they can be shown and ended together. A new session gets a new id at every sign-in.
 */
@Injectable()
export class ConsoleSessions {
  private readonly publicBaseUrl: string;
  private readonly limits: SessionLimits;
  private readonly testModeEnabled: boolean;
  readonly keySignIn: boolean;

  constructor(
    private readonly redis: RedisStore,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly members: MembersService,
    private readonly sso: MemberSso,
    private readonly memberSessionList: MemberSessions,
    private readonly limiter: SignInLimiter,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.publicBaseUrl = config.get('PUBLIC_BASE_URL');
    this.limits = sessionLimits(config.get('CONSOLE_IDLE_MINUTES'), config.get('CONSOLE_SESSION_HOURS'));
    this.keySignIn = keySignInAllowed(config.get('CONSOLE_KEY_SIGN_IN'), config.get('NODE_ENV'));
    this.testModeEnabled = config.get('TEST_MODE_ENABLED');
  }

  private sessionKey(handle: string): string {
    return consoleSessionKey(this.redis, handle);
  }

  private memberSessionsKey(memberId: string): string {
    return memberSessionsKey(this.redis, memberId);
  }

  private secondFactorKey(signInToken: string): string {
    return this.redis.key('console-second-factor', hashApiKey(signInToken));
  }

  /** Failed key sign-ins are counted per client group, an IPv6 client by its /64. */
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

  /** A form sent before any session (sign-in, an invitation's): its origin and the sign-in cookie's token, else 403. */
  checkSignInForm(request: FastifyRequest, sentToken: unknown): string {
    const token = readCookie(request.headers.cookie, SIGN_IN_COOKIE);
    this.checkChange(request, sentToken, token);
    return token as string;
  }

  /**
   * Checks the sign-in form's origin and token (403), then counts the attempt against the address's failures in
   * this minute before deciding (429 beyond the limit): counting first, in one atomic increment, means concurrent
   * attempts cannot all read a count under the limit. A valid key then starts a session and takes its count back;
   * an invalid one leaves it counted as a failure. Refused (403) where CONSOLE_KEY_SIGN_IN is off.
   */
  async signIn(request: FastifyRequest, reply: FastifyReply, sentToken: unknown, plainKey: string): Promise<boolean> {
    this.checkSignInForm(request, sentToken);
    if (!this.keySignIn) throw new ApiError('FORBIDDEN');
    const failuresKey = this.failuresKey(request.ip);
    const [[, attempts]] = (await this.redis.client.multi().incr(failuresKey).expire(failuresKey, 60).exec()) as [[Error | null, number]];
    if (attempts > FAILED_SIGN_INS_PER_MINUTE) throw new ApiError('TOO_MANY_SIGN_INS');
    const user = await this.authenticator.authenticate(plainKey);
    if (!user) return false;
    await this.redis.client.decr(failuresKey);
    await this.start(request, reply, { keyHash: hashApiKey(plainKey) });
    return true;
  }

  /**
   * A member's first step: e-mail address and password, counted per address and per e-mail address before the
   * password is checked (429 beyond either limit). Right, the second step waits five minutes for a code, under the
   * sign-in form's token; wrong, the same false whether the address has an account or not. A right password of a
   * member whose organisation requires single sign-on throws SingleSignOnRequired.
   */
  async passwordStep(request: FastifyRequest, sentToken: unknown, email: string, password: string): Promise<boolean> {
    const token = this.checkSignInForm(request, sentToken);
    const attempt = { scope: MEMBER_SCOPE, address: request.ip, email };
    if ((await this.limiter.count(attempt)) > 0) throw new ApiError('TOO_MANY_SIGN_INS');
    const member = await this.members.passwordHolder(email, password);
    if (!member) {
      const named = await this.members.firstWithEmail(email);
      if (named) await this.members.recordFailedSignIn(named, this.origin(request, named.id), 'password');
      return false;
    }
    if (await this.sso.refuses(member.userId, 'password')) throw new SingleSignOnRequired();
    await this.limiter.forgive(attempt);
    await this.redis.client.set(this.secondFactorKey(token), JSON.stringify({ memberId: member.id, email }), 'PX', SECOND_FACTOR_WAIT_MS);
    return true;
  }

  /**
   * The member whose password step waits for its code in this browser, as they are now; null when none waits. One
   * whose second factor the operator reset (none set) sets a new one here before their session starts.
   */
  async waitingMember(request: FastifyRequest): Promise<MemberRow | null> {
    const token = readCookie(request.headers.cookie, SIGN_IN_COOKIE);
    const waiting = token === null ? null : await this.redis.client.get(this.secondFactorKey(token));
    if (waiting === null) return null;
    const { memberId } = JSON.parse(waiting) as { memberId: string };
    return (await this.members.sessionHolder(memberId))?.member ?? null;
  }

  /**
   * A member's second step: a TOTP code or a recovery code, counted as the password was. Right, a new session
   * starts (a new id, whatever the browser held) and the waiting step is gone; 'expired' when no step waits. A
   * member with no factor (the operator reset it) confirms the new one set up on the code page with its first code
   * instead, and is answered their new recovery codes.
   */
  async secondFactorStep(
    request: FastifyRequest,
    reply: FastifyReply,
    sentToken: unknown,
    code: string,
  ): Promise<'signed-in' | 'wrong' | 'expired' | { recoveryCodes: string[] }> {
    const token = this.checkSignInForm(request, sentToken);
    const waiting = await this.redis.client.get(this.secondFactorKey(token));
    if (waiting === null) return 'expired';
    const { memberId, email } = JSON.parse(waiting) as { memberId: string; email: string };
    const attempt = { scope: MEMBER_SCOPE, address: request.ip, email };
    if ((await this.limiter.count(attempt)) > 0) throw new ApiError('TOO_MANY_SIGN_INS');
    const origin = this.origin(request, memberId);
    const holder = await this.members.sessionHolder(memberId);
    const setUp = holder?.member.totpSecret === null ? await this.members.confirmFactorReset(origin, holder.member, code) : null;
    const right = setUp === null ? holder !== null && (await this.members.secondFactorMatches(memberId, code)) : !('error' in setUp);
    if (!holder || !right) {
      if (holder) await this.members.recordFailedSignIn(holder.member, origin, 'second factor');
      return 'wrong';
    }
    await this.limiter.forgive(attempt);
    await this.redis.client.del(this.secondFactorKey(token));
    await this.startMemberSession(request, reply, holder.member, origin);
    return setUp === null || 'error' in setUp ? 'signed-in' : { recoveryCodes: setUp.recoveryCodes };
  }

  /** Starts a member's session (after sign-in, or after joining) and logs it. */
  async startMemberSession(request: FastifyRequest, reply: FastifyReply, member: MemberRow, origin: ActivityOrigin): Promise<void> {
    await this.start(request, reply, { memberId: member.id });
    await this.members.recordSignIn(member, origin);
  }

  private async start(request: FastifyRequest, reply: FastifyReply, holder: SessionHolder): Promise<void> {
    const now = this.clock.now().getTime();
    const userAgent = request.headers['user-agent'];
    const session: StoredSession = {
      ...holder,
      signedInAt: now,
      lastSeenAt: now,
      csrfToken: newToken(),
      clientAddress: request.ip,
      userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 256) : null,
    };
    await this.storeUnderNewId(reply, session);
    // The sign-in form's token is spent: the next sign-in in this browser gets a new one.
    this.setCookie(reply, SIGN_IN_COOKIE, '', 0);
  }

  /** Stores `session` under a new random id, listed under its member, and gives the browser that id. */
  private async storeUnderNewId(reply: FastifyReply, session: StoredSession): Promise<void> {
    const sessionId = newToken();
    const handle = hashApiKey(sessionId);
    await this.save(handle, session, 'NX');
    if ('memberId' in session) await this.redis.client.sadd(this.memberSessionsKey(session.memberId), handle);
    this.setCookie(reply, SESSION_COOKIE, sessionId, this.limits.absoluteMs / 1000);
  }

  private origin(request: FastifyRequest, memberId: string): ActivityOrigin {
    return requestOrigin({ type: 'member', id: memberId }, request);
  }

  private async stored(handle: string): Promise<StoredSession | null> {
    const stored = await this.redis.client.get(this.sessionKey(handle));
    return stored === null ? null : (JSON.parse(stored) as StoredSession);
  }

  /**
   * The session's holder now: the key's caller, or the member's on the session's side of the account (the one
   * place a member's side is decided); null when the session is over or its holder refused.
   */
  private async holderOf(session: StoredSession): Promise<Omit<ConsoleVisit, 'csrfToken' | 'sessionId' | 'offeredSide'> | null> {
    if (sessionTimeLeftMs(this.limits, session.signedInAt, session.lastSeenAt, this.clock.now().getTime()) <= 0) return null;
    if ('keyHash' in session) {
      const holder = await this.authenticator.holderOfHash(session.keyHash);
      return holder ? { ...holder, member: null } : null;
    }
    return this.members.sessionHolder(session.memberId, session.side ?? 'live');
  }

  /** Whether this request belongs to a live session whose holder still stands; renews and ends nothing. */
  async hasLiveSession(request: FastifyRequest): Promise<boolean> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = sessionId === null ? null : await this.stored(hashApiKey(sessionId));
    return session !== null && (await this.holderOf(session)) !== null;
  }

  /**
   * The signed-in user of this request, with the session's idle time renewed; null (and the session ended) when
   * there is none, it is over, or its holder no longer stands.
   */
  async visit(request: FastifyRequest): Promise<ConsoleVisit | null> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (sessionId === null) return null;
    const handle = hashApiKey(sessionId);
    const session = await this.stored(handle);
    if (session === null) return null;
    const holder = await this.holderOf(session);
    if (!holder) {
      await this.end(handle, session);
      return null;
    }
    // Renewed only while it exists: a request that read the session before a sign-out never writes it back.
    await this.save(handle, { ...session, lastSeenAt: this.clock.now().getTime() }, 'XX');
    const offered = offeredSide(holder.member === null ? 'key' : 'member', holder.user.mode, this.testModeEnabled);
    return { ...holder, csrfToken: session.csrfToken, sessionId, offeredSide: offered };
  }

  /**
   * The Test mode switch: moves a member's session to side `to` of the account, its test side made on first use.
   * A key's session stays on its key's side, and the test side is closed while test mode is off: 403. Not logged: it
   * changes nothing in the account, and what the member then does is logged and recorded with them as the actor.
   */
  async switchSide(reply: FastifyReply, visit: ConsoleVisit, to: KeyMode): Promise<void> {
    const refusal = sideSwitchRefusal(visit.member === null ? 'key' : 'member', to, this.testModeEnabled);
    if (refusal !== null) throw new ApiError('FORBIDDEN', CONSOLE_SIDE_MESSAGES[refusal]);
    // The member's own account: visit.user is the test side already when the session is on it.
    if (to === 'test' && visit.member !== null) await this.members.makeTestSide(visit.member);
    const handle = hashApiKey(visit.sessionId);
    const session = await this.stored(handle);
    // One signed out meanwhile stays ended.
    if (session === null || !('memberId' in session)) return;
    // The session goes on under a new id: a request still on the old one, renewing it, cannot write the old side back.
    await this.end(handle, session);
    await this.storeUnderNewId(reply, { ...session, side: to });
  }

  /**
   * Stores a session for as long as it may live (Redis drops it then, even if no request ever comes): a new one
   * (NX), or one that still exists (XX), so that an ended session stays ended.
   */
  private async save(handle: string, session: StoredSession, when: 'NX' | 'XX'): Promise<void> {
    const timeLeft = sessionTimeLeftMs(this.limits, session.signedInAt, session.lastSeenAt, session.lastSeenAt);
    const key = this.sessionKey(handle);
    if (when === 'NX') await this.redis.client.set(key, JSON.stringify(session), 'PX', timeLeft, 'NX');
    else await this.redis.client.set(key, JSON.stringify(session), 'PX', timeLeft, 'XX');
  }

  /** Ends a session on the server and tells the browser to drop its cookie. */
  async signOut(request: FastifyRequest, reply: FastifyReply, visit: ConsoleVisit): Promise<void> {
    const handle = hashApiKey(visit.sessionId);
    const session = await this.stored(handle);
    if (session) await this.end(handle, session);
    this.setCookie(reply, SESSION_COOKIE, '', 0);
  }

  private async end(handle: string, session: StoredSession): Promise<void> {
    await this.redis.client.del(this.sessionKey(handle));
    if ('memberId' in session) await this.redis.client.srem(this.memberSessionsKey(session.memberId), handle);
  }

  /** A member's sessions that still live, newest first; those that ran out meanwhile are dropped from the list. */
  async memberSessions(memberId: string, currentSessionId: string): Promise<ListedSession[]> {
    const current = hashApiKey(currentSessionId);
    const listed: ListedSession[] = [];
    for (const handle of await this.redis.client.smembers(this.memberSessionsKey(memberId))) {
      const session = await this.stored(handle);
      if (session === null) {
        await this.redis.client.srem(this.memberSessionsKey(memberId), handle);
        continue;
      }
      const { signedInAt, lastSeenAt, clientAddress, userAgent } = session;
      const at = (ms: number) => new Date(ms).toISOString();
      listed.push({ handle, signedInAt: at(signedInAt), lastSeenAt: at(lastSeenAt), clientAddress, userAgent, current: handle === current });
    }
    return listed.sort((a, b) => b.signedInAt.localeCompare(a.signedInAt));
  }

  /**
   * Ends the member's sessions (`handle` one, or all but the session of id `except`, or all): at once, so that their
   * next request goes to the sign-in page. Each ended session is logged as session.ended by `origin`.
   */
  endMemberSessions(
    origin: ActivityOrigin,
    member: Pick<MemberRow, 'id' | 'userId'>,
    which: { handle: string } | { except: string | null },
  ): Promise<number> {
    if ('handle' in which) return this.memberSessionList.end(origin, member, which);
    return this.memberSessionList.end(origin, member, { exceptHandle: which.except === null ? null : hashApiKey(which.except) });
  }
}
