import { Module } from '@nestjs/common';
import { OperatorInvitations } from './operator-invitations';
import { OperatorTotpSecrets } from './operator-totp-secrets';

/** Operators' invitations and sealed TOTP secrets, for the admin command's invite-operator and reseal-secrets. */
@Module({
  providers: [OperatorInvitations, OperatorTotpSecrets],
  exports: [OperatorInvitations, OperatorTotpSecrets],
})
export class OperatorInvitationsModule {}
