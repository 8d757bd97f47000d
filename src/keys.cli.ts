import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ChainBreak } from './activity/activity-chain';
import { ActivityLog } from './activity/activity-log';
import { ApiKeysService, TestSideError, UnknownUserError } from './auth/api-keys.service';
import { AuthModule } from './auth/auth.module';
import { KEYS_USAGE, KeysCommand, parseKeysCommand, UsageError } from './auth/parse-keys-command';
import { BatchRepository } from './batches/batch.repository';
import { ClockModule } from './clock/clock.module';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { AppSettings } from './config/env.schema';
import { readSettings } from './config/read-settings';
import { DatabaseModule } from './database/database.module';
import { EventsService } from './events/events.service';
import { CanaryStore } from './lookups/canary-store';
import { PageShapeStore } from './lookups/page-shape-store';
import { EvidenceRepository } from './evidence/evidence.repository';
import { newReceiptKey } from './evidence/receipt-keys';
import { QuotaRepository } from './quota/quota.repository';
import { RedisModule } from './redis/redis.module';
import { HolderDataReseal } from './secrets/holder-data-reseal';
import { SecretReencryption } from './secrets/secret-reencryption';
import { SecretsModule } from './secrets/secrets.module';
import { UserDeletion, UserDeletionReport } from './user-deletion';
import { WatchlistRepository } from './watchlist/watchlist.repository';
import { WebhookRepository } from './webhooks/webhook.repository';

/**
 * Redis: revocations, disabled users, quota and rate changes are announced to every API process. The other modules'
 * repositories serve delete-user and the reseal commands their own tables; they are provided here alone, because
 * the feature modules would bring queues and processors that a command does not run.
 */
@Module({})
class KeysCliModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: KeysCliModule,
      imports: [AppConfigModule.forRoot(settings), ClockModule, DatabaseModule, RedisModule, AuthModule, SecretsModule],
      providers: [
        CanaryStore,
        PageShapeStore,
        BatchRepository,
        WatchlistRepository,
        WebhookRepository,
        EventsService,
        QuotaRepository,
        EvidenceRepository,
        UserDeletion,
      ],
    };
  }
}

async function execute(app: INestApplicationContext, command: Exclude<KeysCommand, { command: 'receipt-key' }>): Promise<unknown> {
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
    case 'delete-user':
      return deleteUser(app.get(UserDeletion), command.userId, command.confirmed);
    case 'reencrypt-webhook-secrets':
      return app.get(SecretReencryption).reencryptAll(app.get(WebhookRepository));
    case 'canary': {
      const canaries = app.get(CanaryStore);
      const failures = command.action === 'acknowledge' ? await canaries.acknowledge() : await canaries.rebaseline();
      return { canary: command.action, failuresCleared: failures, baselinesCleared: command.action === 'rebaseline' };
    }
    case 'shape-list':
      return app.get(PageShapeStore).list();
    case 'shape-acknowledge':
      if (!(await app.get(PageShapeStore).acknowledge(command.shape)))
        throw new UsageError(`No new page shape ${command.shape} waits for an acknowledgement`);
      return { shape: command.shape, acknowledged: true };
    case 'reseal-holder-data':
      return app.get(HolderDataReseal).resealAll([app.get(WatchlistRepository).sealedDates, app.get(BatchRepository).sealedDates]);
    case 'activity-verify':
      return verifyActivity(app.get(ActivityLog), command.userId);
  }
}

/** The activity log of a user does not hold together from its oldest event kept. */
class BrokenChainError extends Error {}

const BREAKS: Record<ChainBreak['reason'], string> = {
  content: 'its content does not match its hash',
  link: 'its previousHash is not the hash of the event before it',
  gap: 'the event before it is missing',
  head: 'the newest events are missing',
};

/** Recomputes the user's chain: how many events hold together, or BrokenChainError naming the first that does not. */
async function verifyActivity(log: ActivityLog, userId: string): Promise<{ userId: string; events: number; intact: true }> {
  const { events, broken } = await log.verify(userId);
  if (broken === null) return { userId, events, intact: true };
  const where = broken.id === null ? `after event seq ${broken.seq - 1}` : `at event ${broken.id} (seq ${broken.seq})`;
  throw new BrokenChainError(`The activity log of user ${userId} is broken ${where}: ${BREAKS[broken.reason]}`);
}

/**
 * Deletes a user for good with --confirm; without it, refuses and says what it would delete. The printed
 * report, without any of the user's data but its id, is the record of the deletion.
 */
async function deleteUser(deletion: UserDeletion, userId: string, confirmed: boolean): Promise<UserDeletionReport> {
  if (!confirmed) {
    const footprint = await deletion.footprint(userId);
    if (footprint === null) throw new UsageError(`No user ${userId}`);
    const counts = Object.entries(footprint)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    throw new UsageError(`delete-user deletes user ${userId} for good, with ${counts} and its Redis keys: export first, then add --confirm`);
  }
  const report = await deletion.delete(userId);
  if (report === null) throw new UsageError(`No user ${userId}`);
  return report;
}

/** `npm run --silent keys -- …`: key administration; prints one JSON document. */
async function main(): Promise<number> {
  let command: KeysCommand;
  try {
    command = parseKeysCommand(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${KEYS_USAGE}`);
    return 2;
  }
  // A receipt signing key needs no database: one line, in the form RECEIPT_SIGNING_KEYS takes.
  if (command.command === 'receipt-key') {
    console.log(newReceiptKey());
    return 0;
  }
  const app = await NestFactory.createApplicationContext(KeysCliModule.forRoot(readSettings()), { logger: ['error'] });
  try {
    const result = await execute(app, command);
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof UnknownUserError || error instanceof TestSideError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof BrokenChainError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
