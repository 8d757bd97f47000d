import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { operatorsHost } from '../config/env.schema';
import { OPERATOR_CHANGE_MESSAGES, OperatorChange } from '../operator-console/operator-change';
import { OperatorInvitations } from '../operator-console/operator-invitations';
import { OperatorRoster } from '../operator-console/operator-roster';
import { AdminCommand, UsageError } from './admin-grammar';
import { commandRequest } from './key-commands';

type OperatorChangeCommand = Extract<AdminCommand, { command: 'disable-operator' | 'enable-operator' | 'set-operator-role' | 'remove-operator' }>;

/** `invite-operator`: one line, the invitation link (its token is shown only here; only its hash is kept). */
export async function runInviteOperator(app: INestApplicationContext, command: Extract<AdminCommand, { command: 'invite-operator' }>): Promise<string> {
  const config = app.get(AppConfig);
  const port = config.get('OPERATOR_PORT');
  if (port === null) throw new UsageError('The operator console is served on OPERATOR_PORT only: set it first');
  const base =
    config.get('OPERATOR_PUBLIC_URL') || `http://${operatorsHost({ OPERATOR_HOST: config.get('OPERATOR_HOST'), HOST: config.get('HOST') })}:${port}`;
  const token = await app.get(OperatorInvitations).invite(commandRequest(undefined).actor, command.email, command.name, command.role);
  return `${base}/operator/join/${token}`;
}

/**
 * `disable-operator`, `enable-operator`, `set-operator-role` and `remove-operator`: the Operators page's changes, by
 * `cli` and the operating-system user, under the same rules (the last active operator stays); the operator and
 * whether anything changed, or a UsageError with the refusal's words.
 */
export async function runOperatorChange(app: INestApplicationContext, command: OperatorChangeCommand): Promise<{ email: string; changed: boolean }> {
  const roster = app.get(OperatorRoster);
  const operatorId = await roster.idOf(command.email);
  if (operatorId === null) throw new UsageError(`No operator ${command.email}`);
  const outcome = await roster.change(commandRequest(command.reason), operatorId, changeOf(command));
  if (outcome === null) throw new UsageError(`No operator ${command.email}`);
  if ('refused' in outcome) throw new UsageError(OPERATOR_CHANGE_MESSAGES[outcome.refused]);
  return { email: command.email, changed: outcome.changed };
}

function changeOf(command: OperatorChangeCommand): OperatorChange {
  if (command.command === 'set-operator-role') return { kind: 'role', role: command.role };
  return { kind: command.command === 'disable-operator' ? 'disable' : command.command === 'enable-operator' ? 'enable' : 'remove' };
}
