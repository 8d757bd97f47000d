import type { ActivityOrigin } from '../activity/activity-log';

/**
 * Who makes an operator's change: a signed-in operator of the console (by their id, from their address), or the admin
 * command (by the operating-system user who ran it, from the host it ran on).
 */
export interface OperatorActor {
  type: 'operator' | 'cli';
  id: string;
  /** the operator's address, or the command's host */
  source: string | null;
  userAgent: string | null;
}

/** The actor of the admin command: the operating-system user running it, on this host. */
export function cliActor(username: string, hostname: string): OperatorActor {
  return { type: 'cli', id: username, source: hostname, userAgent: null };
}

/** The origin the partner's activity log gives the change: the actor, and a console operator's address and browser. */
export function operatorOrigin(actor: OperatorActor): ActivityOrigin {
  const overHttp = actor.type === 'operator';
  return { actor: { type: actor.type, id: actor.id }, clientAddress: overHttp ? actor.source : null, userAgent: overHttp ? actor.userAgent : null };
}
