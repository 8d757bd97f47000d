import { INestApplicationContext } from '@nestjs/common';
import { OperatorActions } from '../operator-console/operator-actions.service';
import { UserDeletion, UserDeletionReport } from '../operator-console/user-deletion';
import { AdminCommand, UsageError } from './admin-grammar';
import { commandRequest } from './key-commands';

/**
 * `delete-user`: deletes the user for good with --confirm, through the operator's actions (as the operator console
 * does); without it, refuses and says what it would delete. The printed report, without any of the user's data but
 * its id, is the record of the deletion.
 */
export async function runDeleteUser(
  app: INestApplicationContext,
  { userId, confirmed, reason }: Extract<AdminCommand, { command: 'delete-user' }>,
): Promise<UserDeletionReport> {
  if (!confirmed) {
    const footprint = await app.get(UserDeletion).footprint(userId);
    if (footprint === null) throw new UsageError(`No user ${userId}`);
    const counts = Object.entries(footprint)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    throw new UsageError(`delete-user deletes user ${userId} for good, with ${counts} and its Redis keys: export first, then add --confirm`);
  }
  const report = await app.get(OperatorActions).deletePartner(commandRequest(reason), userId);
  if (report === null) throw new UsageError(`No user ${userId}`);
  return report;
}
