import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TestSideError, UnknownUserError } from '../auth/api-keys.service';
import { AuthModule } from '../auth/auth.module';
import { ClockModule } from '../clock/clock.module';
import { AppConfigModule } from '../config/app-config.module';
import { AppSettings } from '../config/env.schema';
import { readSettings } from '../config/read-settings';
import { DatabaseModule } from '../database/database.module';
import { MembersCoreModule } from '../members/members-core.module';
import { CanaryStore } from '../lookups/canary-store';
import { PageShapeStore } from '../lookups/page-shape-store';
import { newReceiptKey } from '../verification-records/receipt-keys';
import { RedisModule } from '../redis/redis.module';
import { SecretsModule } from '../secrets/secrets.module';
import { runActivityCommand, BrokenChainError } from './activity-command';
import { runInviteCommand } from './invite-command';
import { ADMIN_USAGE, AdminCommand, parseAdminCommand, UsageError } from './admin-grammar';
import { runCanaryCommand } from './canary-command';
import { runShapeCommand } from './shape-command';
import { runKeyCommand } from './key-commands';
import { runSecretCommand } from './secret-commands';
import { runDeleteUser } from './delete-user-command';
import { OperatorActionsModule } from '../operator-console/operator-actions.module';
import { OperatorInvitationsModule } from '../operator-console/operator-invitations.module';
import { runInviteOperator, runOperatorChange } from './operator-commands';

/**
 * Redis: revocations, disabled users, quota and rate changes are announced to every API process. Changes to partners
 * go through the operator's actions (OperatorActionsModule), which also lends the reseal commands the feature
 * repositories of their tables: the feature modules would bring queues and processors that a command does not run.
 */
@Module({})
class AdminCliModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: AdminCliModule,
      imports: [
        AppConfigModule.forRoot(settings),
        ClockModule,
        DatabaseModule,
        RedisModule,
        AuthModule,
        SecretsModule,
        OperatorActionsModule,
        OperatorInvitationsModule,
        MembersCoreModule,
      ],
      providers: [CanaryStore, PageShapeStore],
    };
  }
}

/** Each group's command, run on the application context; what it answers is printed. */
async function execute(app: INestApplicationContext, command: Exclude<AdminCommand, { command: 'receipt-key' }>): Promise<unknown> {
  switch (command.command) {
    case 'delete-user':
      return runDeleteUser(app, command);
    case 'reseal-secrets':
    case 'reseal-holder-data':
      return runSecretCommand(app, command);
    case 'canary':
      return runCanaryCommand(app, command);
    case 'shape-list':
    case 'shape-acknowledge':
      return runShapeCommand(app, command);
    case 'activity-verify':
      return runActivityCommand(app, command);
    case 'invite-operator':
      return runInviteOperator(app, command);
    case 'disable-operator':
    case 'enable-operator':
    case 'set-operator-role':
    case 'remove-operator':
      return runOperatorChange(app, command);
    case 'invite':
      return runInviteCommand(app, command);
    default:
      return runKeyCommand(app, command);
  }
}

/** `npm run --silent admin -- …` (its alias: `keys`): the operator's administration; prints one JSON document. */
async function main(): Promise<number> {
  let command: AdminCommand;
  try {
    command = parseAdminCommand(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${ADMIN_USAGE}`);
    return 2;
  }
  // A receipt signing key needs no database: one line, in the form RECEIPT_SIGNING_KEYS takes.
  if (command.command === 'receipt-key') {
    console.log(newReceiptKey());
    return 0;
  }
  const app = await NestFactory.createApplicationContext(AdminCliModule.forRoot(readSettings()), { logger: ['error'] });
  try {
    const result = await execute(app, command);
    // A line of text (an invitation link) is printed as it is; anything else as one JSON document.
    console.log(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
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
