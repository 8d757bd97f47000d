import { KeyMode } from './key-mode';
import { KeyRole } from './key-role';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Who is calling: a key, as ApiKeyGuard established it, or a member signed in to the console (src/members). */
export interface AuthenticatedUser {
  userId: string;
  /** the calling key; null for a member's console session */
  keyId: string | null;
  /** the member of a console session; absent for a key (an API call, or a console session signed in with a key) */
  memberId?: string;
  /** the side of the user the key works on: decided by the key alone */
  mode: KeyMode;
  /** what the key may do (key-role.ts); fixed when the key is made, so cached with it */
  role: KeyRole;
  /** null for an unlimited plan */
  monthlyQuota: number | null;
  /** the account's own bound on its live lookups waiting for the register; null or absent: USER_MAX_LIVE_LOOKUPS */
  liveLookupLimit?: number | null;
}

/** A caller known by its key: every API call, and a console session signed in with a key. */
export type KeyCaller = AuthenticatedUser & { keyId: string };

/** The key of a caller on a route only a key reaches (the API's, behind ApiKeyGuard). */
export function callingKey(user: AuthenticatedUser): string {
  if (user.keyId === null) throw new Error('a route for keys reached without a key');
  return user.keyId;
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
