import { INestApplicationContext } from '@nestjs/common';
import { ChainBreak } from '../activity/activity-chain';
import { ActivityLog } from '../activity/activity-log';
import { AdminCommand } from './admin-grammar';

/** The activity log of a user does not hold together from its oldest event kept. */
export class BrokenChainError extends Error {}

const BREAKS: Record<ChainBreak['reason'], string> = {
  content: 'its content does not match its hash',
  link: 'its previousHash is not the hash of the event before it',
  gap: 'the event before it is missing',
  head: 'the newest events are missing',
};

/** `activity verify`: recomputes the user's chain; how many events hold together, or BrokenChainError naming the first that does not. */
export async function runActivityCommand(
  app: INestApplicationContext,
  { userId }: Extract<AdminCommand, { command: 'activity-verify' }>,
): Promise<{ userId: string; events: number; intact: true }> {
  const { events, broken } = await app.get(ActivityLog).verify(userId);
  if (broken === null) return { userId, events, intact: true };
  const where = broken.id === null ? `after event seq ${broken.seq - 1}` : `at event ${broken.id} (seq ${broken.seq})`;
  throw new BrokenChainError(`The activity log of user ${userId} is broken ${where}: ${BREAKS[broken.reason]}`);
}
