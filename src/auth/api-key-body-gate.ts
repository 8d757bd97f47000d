import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyBodyGate } from '../http/body-gates';
import { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter';
import { hashApiKey, readApiKey } from './api-key-secret';
import { ApiKeyAuthenticator } from './api-key-authenticator';

/**
 * Admits a large body only from a caller whose API key is valid, asking as ApiKeyGuard does: what this process
 * knows first, PostgreSQL only while the address is under its failure limit. It counts no failure: the guard,
 * which answers the request, does.
 */
@Injectable()
export class ApiKeyAuthenticatorBodyGate extends ApiKeyBodyGate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly failures: AuthFailureLimiter,
  ) {
    super();
  }

  async admits(request: FastifyRequest): Promise<boolean> {
    const plainKey = readApiKey(request.headers);
    if (plainKey === null) return false;
    const keyHash = hashApiKey(plainKey);
    const recalled = this.authenticator.recall(keyHash);
    if (recalled !== undefined) return recalled !== null;
    if ((await this.failures.secondsBlocked(request.ip)) > 0) return false;
    return (await this.authenticator.load(keyHash)) !== null;
  }
}
