import { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { AppConfig } from '../config/app-config';
import { AdminCommand, UsageError } from './admin-grammar';

/** The commands on users and their keys. */
export type KeyCommand = Extract<
  AdminCommand,
  { command: 'create' | 'list' | 'revoke' | 'set-quota' | 'set-rate-limit' | 'set-watch-limit' | 'disable-user' | 'enable-user' }
>;

/** Creates, lists and revokes keys, and sets or stops their users; a user or key that does not exist is a UsageError. */
export async function runKeyCommand(app: INestApplicationContext, command: KeyCommand): Promise<unknown> {
  const apiKeys = app.get(ApiKeysService);
  switch (command.command) {
    case 'create':
      return apiKeys.createKey({
        name: command.name,
        quota: command.quota,
        expiresAt: command.expiresAt,
        userId: command.userId ?? undefined,
        testModeQuota: command.test ? app.get(AppConfig).get('TEST_MODE_QUOTA') : undefined,
      });
    case 'list':
      return apiKeys.listKeys();
    case 'revoke':
      if (!(await apiKeys.revokeKey(command.keyId))) throw new UsageError(`No key ${command.keyId}`);
      return { keyId: command.keyId, revoked: true };
    case 'set-quota':
      if (!(await apiKeys.setQuota(command.userId, command.quota))) {
        throw new UsageError(`No user ${command.userId}`);
      }
      return { userId: command.userId, quota: command.quota };
    case 'set-rate-limit':
      if (!(await apiKeys.setRateLimit(command.userId, command.ratePerSecond))) {
        throw new UsageError(`No user ${command.userId}`);
      }
      return { userId: command.userId, rateLimitPerSecond: command.ratePerSecond };
    case 'set-watch-limit':
      if (!(await apiKeys.setWatchLimit(command.userId, command.watchLimit))) {
        throw new UsageError(`No user ${command.userId}`);
      }
      return { userId: command.userId, watchLimit: command.watchLimit };
    case 'disable-user':
    case 'enable-user': {
      const changed = await apiKeys.setDisabled(command.userId, command.command === 'disable-user');
      if (!changed) throw new UsageError(`No user ${command.userId}`);
      return { userId: command.userId, ...changed };
    }
  }
}
