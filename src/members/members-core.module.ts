import { Module } from '@nestjs/common';
import { ActivityModule } from '../activity/activity.module';
import { AuthCoreModule } from '../auth/auth-core.module';
import { SecretsModule } from '../secrets/secrets.module';
import { OpenIdSignIn } from '../people/openid-sign-in';
import { InvitationMail } from './invitation-mail';
import { MemberSso } from './member-sso.service';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

/** Members without HTTP: for the console (its pages and single sign-on) and the admin command (invite). */
@Module({
  imports: [AuthCoreModule, ActivityModule, SecretsModule],
  providers: [MembersRepository, MembersService, InvitationMail, MemberSso, OpenIdSignIn],
  exports: [MembersService, MemberSso],
})
export class MembersCoreModule {}
