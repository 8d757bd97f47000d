import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { readApiKey } from './api-key-secret';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { AuthenticatedUser, RequestWithUser } from './authenticated-user';

function admit(request: RequestWithUser, user: AuthenticatedUser | null): true {
  if (!user) throw new ApiError('UNAUTHORIZED');
  request.authenticatedUser = user;
  return true;
}

/** Admits a request only with a valid key; runs before body validation, so 401 wins over 400. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithUser>();
    const plainKey = readApiKey(request.headers);
    const user = plainKey ? this.authenticator.authenticate(plainKey) : null;
    return user instanceof Promise ? user.then((found) => admit(request, found)) : admit(request, user);
  }
}
