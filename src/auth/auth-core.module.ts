import { Module } from '@nestjs/common';
import { RecordOwners } from '../evidence/record-owners';
import { AuthRepository } from './auth.repository';

/**
 * Auth without HTTP: the users and keys repository, and RecordOwners, which tells the worker's evidence drain which
 * users exist. The API's AuthModule builds on it; the worker imports only this.
 */
@Module({
  providers: [AuthRepository, { provide: RecordOwners, useExisting: AuthRepository }],
  exports: [AuthRepository, RecordOwners],
})
export class AuthCoreModule {}
