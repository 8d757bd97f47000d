import { KeyMode } from './key-mode';
import { KeyRole } from './key-role';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Who is calling, as established by ApiKeyGuard. */
export interface AuthenticatedUser {
  userId: string;
  keyId: string;
  /** the side of the user the key works on: decided by the key alone */
  mode: KeyMode;
  /** what the key may do (key-role.ts); fixed when the key is made, so cached with it */
  role: KeyRole;
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
