import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { operatorsHost } from '../config/env.schema';
import { OperatorInvitations } from '../operator-console/operator-invitations';
import { AdminCommand, UsageError } from './admin-grammar';

/** `invite-operator`: one line, the invitation link (its token is shown only here; only its hash is kept). */
export async function runInviteOperator(app: INestApplicationContext, command: Extract<AdminCommand, { command: 'invite-operator' }>): Promise<string> {
  const config = app.get(AppConfig);
  const port = config.get('OPERATOR_PORT');
  if (port === null) throw new UsageError('The operator console is served on OPERATOR_PORT only: set it first');
  const base =
    config.get('OPERATOR_PUBLIC_URL') || `http://${operatorsHost({ OPERATOR_HOST: config.get('OPERATOR_HOST'), HOST: config.get('HOST') })}:${port}`;
  const token = await app.get(OperatorInvitations).invite(command.email, command.name, command.role);
  return `${base}/operator/join/${token}`;
}
