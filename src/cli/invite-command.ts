import { INestApplicationContext } from '@nestjs/common';
import { AuthRepository } from '../auth/auth.repository';
import { UnknownUserError } from '../auth/api-keys.service';
import { MembersService } from '../members/members.service';
import { AdminCommand, UsageError } from './admin-grammar';

/** The operator's command, as the activity log names it. */
const CLI_ORIGIN = { actor: { type: 'cli' as const, id: null }, clientAddress: null, userAgent: null };

/** `invite`: a member of the user's live account (its first owner, typically); the invitation link. */
export async function runInviteCommand(
  app: INestApplicationContext,
  { userId, email, role }: Extract<AdminCommand, { command: 'invite' }>,
): Promise<string> {
  const mode = await app.get(AuthRepository).userMode(userId);
  if (mode === undefined) throw new UnknownUserError(`No user ${userId}`);
  if (mode === 'test') throw new UsageError('USER_ID is a test side: invite members to its live user, which the Test mode switch takes them to');
  const invited = await app.get(MembersService).invite(CLI_ORIGIN, null, userId, email, role);
  if ('error' in invited) throw new UsageError(invited.error);
  return invited.link;
}
