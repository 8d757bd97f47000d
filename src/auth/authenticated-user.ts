import { KeyMode } from './key-mode';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Who is calling, as established by ApiKeyGuard. */
export interface AuthenticatedUser {
  userId: string;
  keyId: string;
  /** the side of the user the key works on: decided by the key alone */
  mode: KeyMode;
  /** null for an unlimited plan */
  monthlyQuota: number | null;
}

/** Whose objects a request reads: the user, and its mode, which every object it shows carries. */
export type DataOwner = Pick<AuthenticatedUser, 'userId' | 'mode'>;

export interface RequestWithUser {
  authenticatedUser?: AuthenticatedUser;
}

export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const user = context.switchToHttp().getRequest<RequestWithUser>().authenticatedUser;
  if (!user) throw new Error('CurrentUser used on a route without ApiKeyGuard');
  return user;
});
