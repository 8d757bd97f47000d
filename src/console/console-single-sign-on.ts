import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestOrigin } from '../auth/activity-origin';
import { hashApiKey } from '../auth/api-key-secret';
import { AppConfig } from '../config/app-config';
import { MemberSso, PendingSsoSignIn } from '../members/member-sso.service';
import type { Refused } from '../members/members.service';
import { RedisStore } from '../redis/redis.module';
import { cookieHeader, readCookie, SSO_COOKIE } from './console-cookies';
import { consoleOrigin } from './console-origin';
import { ConsoleSessions, newToken } from './console-sessions';

export const SSO_CALLBACK_PATH = '/console/sign-in/sso/callback';
/** How long a sign-in sent to the provider waits for its callback. */
const SSO_WAIT_SECONDS = 600;

/** Where a sign-in sent to a provider waits: its Redis key's scope and its cookie (SameSite=Lax, to come back from the provider). */
export interface PendingPlace {
  scope: string;
  cookie: string;
}

/**
 * Keeps what the callback must see again (the flow's state, nonce and PKCE verifier, and whose sign-in it is) in
 * Redis for ten minutes under a random id, whose cookie the browser brings back from the provider.
 */
export async function keepPending(redis: RedisStore, place: PendingPlace, reply: FastifyReply, pending: object): Promise<void> {
  const flowId = newToken();
  await redis.client.set(redis.key(place.scope, hashApiKey(flowId)), JSON.stringify(pending), 'EX', SSO_WAIT_SECONDS);
  void reply.header('set-cookie', cookieHeader(place.cookie, flowId, SSO_WAIT_SECONDS, 'Lax'));
}

/** Takes the sign-in this browser's cookie names, once (the cookie is dropped too); null when none waits. */
export async function takePending<T>(redis: RedisStore, place: PendingPlace, request: FastifyRequest, reply: FastifyReply): Promise<T | null> {
  const flowId = readCookie(request.headers.cookie, place.cookie);
  void reply.header('set-cookie', cookieHeader(place.cookie, '', 0, 'Lax'));
  const stored = flowId === null ? null : await redis.client.getdel(redis.key(place.scope, hashApiKey(flowId)));
  return stored === null ? null : (JSON.parse(stored) as T);
}

/** The words for a callback with no sign-in waiting: expired, used already, or begun in another browser. */
export const NO_PENDING_SIGN_IN = 'This single sign-on has expired or was used already. Start again.';

const MEMBER_PENDING: PendingPlace = { scope: 'console-sso', cookie: SSO_COOKIE };

/**
 * A member's sign-in through their organisation's OpenID provider, over the console's cookies and Redis. The first
 * half keeps the flow's state, nonce and PKCE verifier in Redis under a random id, whose cookie (SSO_COOKIE, Lax)
 * comes back with the provider's callback; the callback takes them once, and a member it lets in gets a session
 * through the same start as a password sign-in (a new id, member.signed_in).
 */
@Injectable()
export class ConsoleSingleSignOn {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly redis: RedisStore,
    private readonly sso: MemberSso,
    private readonly sessions: ConsoleSessions,
    config: AppConfig,
  ) {
    this.publicBaseUrl = config.get('PUBLIC_BASE_URL');
  }

  /** The address providers send people back to: the console's public origin (PUBLIC_BASE_URL, else this request's). */
  redirectUri(request: FastifyRequest): string {
    return `${consoleOrigin(this.publicBaseUrl, request)}${SSO_CALLBACK_PATH}`;
  }

  /** The sign-in form's first half (its origin and token checked): the provider's URL, or why there is none. */
  async start(request: FastifyRequest, reply: FastifyReply, sentToken: unknown, email: string): Promise<{ url: string } | Refused> {
    this.sessions.checkSignInForm(request, sentToken);
    const started = await this.sso.start(email, this.redirectUri(request));
    if ('error' in started) return started;
    await keepPending(this.redis, MEMBER_PENDING, reply, started.pending);
    return { url: started.url };
  }

  /** The provider's callback: a session started, or the refusal's words (no sign-in waiting, or the provider's answer refused). */
  async finish(request: FastifyRequest, reply: FastifyReply): Promise<Refused | null> {
    const pending = await takePending<PendingSsoSignIn>(this.redis, MEMBER_PENDING, request, reply);
    if (pending === null) return { error: NO_PENDING_SIGN_IN };
    const callbackUrl = new URL(request.url, consoleOrigin(this.publicBaseUrl, request));
    const member = await this.sso.finish(pending, this.redirectUri(request), callbackUrl, requestOrigin({ type: 'member', id: null }, request));
    if ('error' in member) return member;
    await this.sessions.startMemberSession(request, reply, member, requestOrigin({ type: 'member', id: member.id }, request));
    return null;
  }
}
