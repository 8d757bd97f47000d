import { Module } from '@nestjs/common';
import { OperatorInvitations } from './operator-invitations';

/** Operators' invitations, for the admin command's invite-operator. */
@Module({
  providers: [OperatorInvitations],
  exports: [OperatorInvitations],
})
export class OperatorInvitationsModule {}
