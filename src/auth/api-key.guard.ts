import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { readApiKey } from './api-key-secret';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RequestWithUser } from './authenticated-user';

/** Admits a request only with a valid key; runs before body validation, so 401 wins over 400. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithUser>();
    const plainKey = readApiKey(request.headers);
    const user = plainKey ? await this.authenticator.authenticate(plainKey) : null;
    if (!user) throw new ApiError('UNAUTHORIZED');
    request.authenticatedUser = user;
    return true;
  }
}
