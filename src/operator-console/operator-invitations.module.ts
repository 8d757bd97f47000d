import { Module } from '@nestjs/common';
import { OperatorActionsModule } from './operator-actions.module';
import { OperatorInvitations } from './operator-invitations';
import { OperatorTotpSecrets } from './operator-totp-secrets';

/** Operators' invitations (logged in the operators' log) and sealed TOTP secrets, for the admin command's invite-operator and reseal-secrets. */
@Module({
  imports: [OperatorActionsModule],
  providers: [OperatorInvitations, OperatorTotpSecrets],
  exports: [OperatorInvitations, OperatorTotpSecrets],
})
export class OperatorInvitationsModule {}
