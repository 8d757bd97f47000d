import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { OperatorAccounts } from './operator-accounts';

/** The operators' accounts, for the operator console's sign-in and invitations. */
@Module({
  imports: [SecretsModule],
  providers: [OperatorAccounts],
  exports: [OperatorAccounts],
})
export class OperatorAccountsModule {}
