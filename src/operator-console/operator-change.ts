import type { OperatorRole } from './operator-role';

/** An operator as the rules see them: `active` when they joined (a second factor, or single sign-on) and are not disabled. */
export interface RosterOperator {
  id: string;
  role: OperatorRole;
  active: boolean;
}

/** A change one operator (or the admin command) asks of another. */
export type OperatorChange = { kind: 'disable' } | { kind: 'enable' } | { kind: 'role'; role: OperatorRole } | { kind: 'remove' };
export type OperatorChangeKind = OperatorChange['kind'];

export type OperatorChangeRefusal = 'SELF' | 'LAST_OPERATOR';

/** The words an operator reads for each refusal (the admin command prints them too). */
export const OPERATOR_CHANGE_MESSAGES: Readonly<Record<OperatorChangeRefusal, string>> = {
  SELF: 'You cannot disable, remove or change the role of your own account: ask another operator. Nothing was changed.',
  LAST_OPERATOR: 'The service needs an active operator who may change things: make another one active first. Nothing was changed.',
};

/**
 * Why the change may not be made, or null when it may. `actorId`: the operator asking, or null for the admin command
 * (run on the host, it is no one's own account). `roster`: every operator as it is before the change, held locked by
 * the caller, so that two changes at once cannot both take the last active `operator` away. No operator changes
 * their own account this way; the last active `operator` is neither disabled, made `support`, nor removed.
 */
export function operatorChangeRefusal(
  actorId: string | null,
  target: RosterOperator,
  change: OperatorChange,
  roster: readonly RosterOperator[],
): OperatorChangeRefusal | null {
  if (actorId === target.id) return 'SELF';
  const keepsChanging = change.kind === 'enable' || (change.kind === 'role' && change.role === 'operator');
  const losesOperator = target.active && target.role === 'operator' && !keepsChanging;
  const activeOperators = roster.filter((operator) => operator.active && operator.role === 'operator').length;
  return losesOperator && activeOperators <= 1 ? 'LAST_OPERATOR' : null;
}
