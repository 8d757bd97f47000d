import { Module } from '@nestjs/common';
import { ActivityModule } from '../activity/activity.module';
import { AuthCoreModule } from '../auth/auth-core.module';
import { SecretsModule } from '../secrets/secrets.module';
import { OpenIdSignIn } from '../people/openid-sign-in';
import { InvitationMail } from './invitation-mail';
import { MemberSso } from './member-sso.service';
import { MemberPasskeys } from './member-passkeys';
import { MemberSealedSecrets } from './member-sealed-secrets';
import { MemberSessions } from './member-sessions';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { PasswordResets } from './password-resets';

/** Members without HTTP: for the console (its pages, passkeys, password resets, single sign-on) and the admin command (invite, reseal-secrets). */
@Module({
  imports: [AuthCoreModule, ActivityModule, SecretsModule],
  providers: [
    MembersRepository,
    MembersService,
    MemberSessions,
    InvitationMail,
    MemberPasskeys,
    PasswordResets,
    MemberSso,
    OpenIdSignIn,
    MemberSealedSecrets,
  ],
  exports: [MembersService, MemberSessions, MemberPasskeys, PasswordResets, MemberSso, MemberSealedSecrets],
})
export class MembersCoreModule {}
