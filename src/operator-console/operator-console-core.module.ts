import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OpenIdSignIn } from '../people/openid-sign-in';
import { LookupsModule } from '../lookups/lookups.module';
import { PeopleModule } from '../people/people.module';
import { OperatorAccountsModule } from './operator-accounts.module';
import { OperatorActionsModule } from './operator-actions.module';
import { OperatorConsoleService } from './operator-console.service';
import { OperatorSessions } from './operator-sessions';
import { OperatorSingleSignOn } from './operator-single-sign-on';
import { PartnerFigures } from './partner-figures.repository';

/**
 * The operator console's services, built in the partner app (its database, Redis, queues and metrics) when
 * OPERATOR_PORT is set; the operators' listener serves their pages (OperatorPagesModule) with these instances.
 */
@Module({
  imports: [AuthModule, PeopleModule, LookupsModule, OperatorActionsModule, OperatorAccountsModule],
  providers: [OperatorConsoleService, OperatorSessions, PartnerFigures, OpenIdSignIn, OperatorSingleSignOn],
  exports: [OperatorConsoleService, OperatorSessions, OperatorSingleSignOn, OperatorAccountsModule, PeopleModule],
})
export class OperatorConsoleCoreModule {}
