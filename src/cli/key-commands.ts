import { INestApplicationContext } from '@nestjs/common';
import { hostname, userInfo } from 'node:os';
import { ApiKeysService } from '../auth/api-keys.service';
import { AppConfig } from '../config/app-config';
import { OperatorActions, OperatorRequest } from '../operator-console/operator-actions.service';
import { cliActor } from '../operator-console/operator-actor';
import { AdminCommand, UsageError } from './admin-grammar';

/** The commands on users and their keys. */
export type KeyCommand = Extract<
  AdminCommand,
  {
    command:
      | 'create'
      | 'list'
      | 'revoke'
      | 'set-quota'
      | 'set-rate-limit'
      | 'set-watch-limit'
      | 'set-live-limit'
      | 'disable-user'
      | 'enable-user'
      | 'create-partner'
      | 'reset-factor';
  }
>;

const noUser = (userId: string) => new UsageError(`No user ${userId}`);

/** A change asked by the command: the operating-system user running it, and the reason given with --reason. */
export function commandRequest(reason: string | undefined): OperatorRequest {
  return { actor: cliActor(userInfo().username, hostname()), reason: reason ?? null };
}

/**
 * Creates, lists and revokes keys, creates partners with their first owner's invitation, resets a member's second
 * factor, and sets or stops users, through the operator's actions (as the operator
 * console does); a user or key that does not exist is a UsageError.
 */
export async function runKeyCommand(app: INestApplicationContext, command: KeyCommand): Promise<unknown> {
  const actions = app.get(OperatorActions);
  if (command.command === 'list') return app.get(ApiKeysService).listKeys();
  const request = commandRequest(command.reason);
  switch (command.command) {
    case 'create':
      return actions.issueKey(request, {
        name: command.name,
        quota: command.quota,
        expiresAt: command.expiresAt,
        userId: command.userId,
        testModeQuota: command.test ? app.get(AppConfig).get('TEST_MODE_QUOTA') : undefined,
      });
    case 'revoke':
      if (!(await actions.revokeKey(request, command.keyId))) throw new UsageError(`No key ${command.keyId}`);
      return { keyId: command.keyId, revoked: true };
    case 'set-quota':
      if (!(await actions.setQuota(request, command.userId, command.quota))) throw noUser(command.userId);
      return { userId: command.userId, quota: command.quota };
    case 'set-rate-limit':
      if (!(await actions.setRateLimit(request, command.userId, command.ratePerSecond))) throw noUser(command.userId);
      return { userId: command.userId, rateLimitPerSecond: command.ratePerSecond };
    case 'set-watch-limit':
      if (!(await actions.setWatchLimit(request, command.userId, command.watchLimit))) throw noUser(command.userId);
      return { userId: command.userId, watchLimit: command.watchLimit };
    case 'set-live-limit':
      if (!(await actions.setLiveLookupLimit(request, command.userId, command.liveLookupLimit))) throw noUser(command.userId);
      return { userId: command.userId, liveLookupLimit: command.liveLookupLimit };
    case 'create-partner': {
      const created = await actions.createPartner(request, { name: command.name, quota: command.quota, ownerEmail: command.email });
      if ('error' in created) throw new UsageError(created.error);
      return { userId: created.userId, ownerInvitation: created.link };
    }
    case 'reset-factor': {
      const reset = await actions.resetMemberFactor(request, command.userId, { email: command.email });
      if (!reset) throw new UsageError(`No member ${command.email} of user ${command.userId} who has joined`);
      return { userId: command.userId, ...reset };
    }
    case 'disable-user':
    case 'enable-user': {
      const changed = await actions.setDisabled(request, command.userId, command.command === 'disable-user');
      if (!changed) throw noUser(command.userId);
      return { userId: command.userId, ...changed };
    }
  }
}
