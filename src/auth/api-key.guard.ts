import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { RATE_LIMIT_EXEMPT } from '../http/rate-limit-docs';
import { VERIFICATION_MODE_HEADER } from '../http/verification-mode-docs';
import { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter';
import { rateLimitFields } from '../rate-limit/rate-limit-fields';
import { UserRateLimiter } from '../rate-limit/user-rate-limiter';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import { hashApiKey, readApiKey } from './api-key-secret';
import { ApiKeyAuthenticator, KeyHolder } from './api-key-authenticator';
import { AuthenticatedUser, RequestWithUser } from './authenticated-user';
import { roleMay } from './key-role';
import { requiredPermission } from './requires';

/** What a key check found: the seconds its address must wait first, or the key's holder (null: no valid key). */
interface KeyCheck {
  blockedSeconds: number;
  holder: KeyHolder | null;
}

function rateLimited(reply: FastifyReply, retryAfterSeconds: number): ApiError {
  void reply.header('Retry-After', String(retryAfterSeconds));
  return new ApiError('RATE_LIMITED');
}

/**
 * Admits a request only with a valid key, then takes a token from its user's bucket (unless the route is
 * exempt), then checks the key's role against the route's @Requires; runs before body validation, so 401, 429 and
 * 403 win over 400. A key this process does not know is
 * looked up only while the client's address is under its limit of failed authentications.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** The key checks under way in this process, by address and key hash (lookUpOnce). */
  private readonly lookups = new Map<string, Promise<KeyCheck>>();

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly failures: AuthFailureLimiter,
    private readonly rates: UserRateLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & RequestWithUser>();
    const reply = http.getResponse<FastifyReply>();
    const plainKey = readApiKey(request.headers);
    const keyHash = plainKey ? hashApiKey(plainKey) : null;
    const exempt = this.reflector.get<boolean>(RATE_LIMIT_EXEMPT, context.getHandler()) === true;
    const recalled = keyHash === null ? null : this.authenticator.recall(keyHash);
    const holder = recalled ?? (await this.authenticateOrCount(request.ip, reply, keyHash, recalled, exempt));
    request.authenticatedUser = holder.user;
    // Set on the reply now, so that every answer from here on carries it, errors (ApiErrorFilter) included.
    if (holder.user.mode === 'test') void reply.header(VERIFICATION_MODE_HEADER, 'test');
    if (!exempt) await this.takeToken(holder, reply);
    this.checkRole(context, holder.user);
    return true;
  }

  /** The key's role against the route's @Requires: refused before the route does anything (no charge, job or change). */
  private checkRole(context: ExecutionContext, user: AuthenticatedUser): void {
    if (!roleMay(user.role, requiredPermission(this.reflector, context))) throw new ApiError('FORBIDDEN');
  }

  /**
   * Every key but one this process knows to be valid: an address over its failure limit gets 429 before
   * anything is looked up (401 on an exempt route, whose interface has no 429). Each attempt is counted before
   * its key is looked up (AuthFailureLimiter.countAttempt) and forgiven if the key proves good.
   */
  private async authenticateOrCount(
    address: string,
    reply: FastifyReply,
    keyHash: string | null,
    recalled: null | undefined,
    exempt: boolean,
  ): Promise<KeyHolder> {
    const check =
      keyHash !== null && recalled === undefined
        ? await this.lookUpOnce(address, keyHash)
        : { blockedSeconds: await this.failures.countAttempt(address), holder: null };
    if (check.blockedSeconds > 0) throw exempt ? new ApiError('UNAUTHORIZED') : rateLimited(reply, check.blockedSeconds);
    if (!check.holder) throw new ApiError('UNAUTHORIZED');
    return check.holder;
  }

  /**
   * One attempt and one lookup for all the requests that bring the same key from the same address at once: a busy
   * partner's requests, arriving together when its key's cache entry ages out, would otherwise each count an attempt
   * before any was forgiven, and pass the failure limit with a good key.
   */
  private lookUpOnce(address: string, keyHash: string): Promise<KeyCheck> {
    const id = `${address} ${keyHash}`;
    let check = this.lookups.get(id);
    if (!check) {
      check = this.countAndLoad(address, keyHash).finally(() => this.lookups.delete(id));
      this.lookups.set(id, check);
    }
    return check;
  }

  private async countAndLoad(address: string, keyHash: string): Promise<KeyCheck> {
    const blockedSeconds = await this.failures.countAttempt(address);
    if (blockedSeconds > 0) return { blockedSeconds, holder: null };
    // A lookup that fails (the database down) proved nothing against the address, so it is forgiven as a good key.
    const holder = await this.authenticator.load(keyHash).catch(async (error: unknown) => {
      await this.failures.forgive(address);
      throw error;
    });
    if (holder) await this.failures.forgive(address);
    return { blockedSeconds: 0, holder };
  }

  /** Every answer after this carries the RateLimit fields; without Redis, no request is admitted unlimited. */
  private async takeToken(holder: KeyHolder, reply: FastifyReply): Promise<void> {
    const decision = await this.rates.take(holder.user.userId, holder.rateLimitPerSecond).catch((error: unknown) => {
      throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
    });
    void reply.headers(rateLimitFields(decision.policy, decision));
    if (!decision.admitted) throw rateLimited(reply, decision.secondsToNextToken);
  }
}
