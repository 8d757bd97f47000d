import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthModule } from '../auth/auth.module';
import { BatchesModule } from '../batches/batches.module';
import { QuotaModule } from '../quota/quota.module';
import { VerificationModule } from '../verification/verification.module';
import { WatchlistModule } from '../watchlist/watchlist.module';
import { EventsModule } from '../events/events.module';
import { HoldersModule } from '../holders/holders.module';
import { ConsoleSessionBodyGate } from '../http/body-gates';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { VerificationRecordsModule } from '../verification-records/verification-records.module';
import { ConsoleController } from './console.controller';
import { ConsoleSignInController } from './console-sign-in.controller';
import { ConsoleSessions } from './console-sessions';
import { ConsoleSingleSignOn } from './console-single-sign-on';
import { ConsoleService } from './console.service';
import { ConsoleMembersController } from './console-members.controller';
import { ConsoleMembersService } from './console-members.service';
import { ConsoleActivityController } from './console-activity.controller';
import { ConsoleActivityService } from './console-activity.service';
import { ConsolePasskeys } from './console-passkeys';
import { ConsolePasswordResetController } from './console-password-reset.controller';
import { MembersCoreModule } from '../members/members-core.module';
import { PeopleModule } from '../people/people.module';
import { mountConsole } from './mount-console';

/** The partner console at /console: pages over the feature services, with the API's own scoping and rules. */
@Module({
  imports: [
    AuthModule,
    QuotaModule,
    VerificationModule,
    HoldersModule,
    BatchesModule,
    WatchlistModule,
    WebhooksModule,
    EventsModule,
    VerificationRecordsModule,
    MembersCoreModule,
    PeopleModule,
  ],
  controllers: [ConsoleSignInController, ConsolePasswordResetController, ConsoleController, ConsoleMembersController, ConsoleActivityController],
  providers: [
    ConsoleService,
    ConsoleSessions,
    ConsoleSingleSignOn,
    ConsoleMembersService,
    ConsoleActivityService,
    ConsolePasskeys,
    // Roster uploads larger than an ordinary form are read only for a signed-in session.
    {
      provide: ConsoleSessionBodyGate,
      useFactory: (sessions: ConsoleSessions) => ({ admits: (request: FastifyRequest) => sessions.hasLiveSession(request) }),
      inject: [ConsoleSessions],
    },
  ],
})
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    mountConsole(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }
}
