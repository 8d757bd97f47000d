import { Module } from '@nestjs/common';
import { AuthRepository } from './auth.repository';
import { UserModes } from './user-modes';

/**
 * Auth without HTTP: the users and keys repository, and each user's mode (live or test) for the lookup road. The
 * API's AuthModule builds on it; the worker imports only this.
 */
@Module({
  providers: [AuthRepository, UserModes],
  exports: [AuthRepository, UserModes],
})
export class AuthCoreModule {}
