import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { RequestWithUser } from '../auth/authenticated-user';
import { ApiError } from '../errors/api-error';

/**
 * After ApiKeyGuard: a live key is refused 403 TEST_MODE_ONLY before its body is looked at, so that no live caller
 * learns anything of the test register from a validation answer.
 */
@Injectable()
export class TestKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<RequestWithUser>().authenticatedUser?.mode !== 'test') throw new ApiError('TEST_MODE_ONLY');
    return true;
  }
}
