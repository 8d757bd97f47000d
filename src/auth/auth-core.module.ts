import { Module } from '@nestjs/common';
import { RecordOwners } from '../evidence/record-owners';
import { AuthRepository } from './auth.repository';
import { UserModes } from './user-modes';

/**
 * Auth without HTTP: the users and keys repository, each user's mode (live or test) for the lookup road, and
 * RecordOwners, which tells the worker's evidence drain which users exist. The API's AuthModule builds on it; the
 * worker imports only this.
 */
@Module({
  providers: [AuthRepository, UserModes, { provide: RecordOwners, useExisting: AuthRepository }],
  exports: [AuthRepository, UserModes, RecordOwners],
})
export class AuthCoreModule {}
