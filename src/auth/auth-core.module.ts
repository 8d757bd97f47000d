import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity';
import { AuthRepository } from './auth.repository';
import { User } from './user.entity';
import { UserModes } from './user-modes';

/**
 * Auth without HTTP: the users and keys (their entities, which others' entities refer to), their repository, and each
 * user's mode (live or test) for the lookup road. The API's AuthModule builds on it; the worker imports only this.
 */
@Module({
  imports: [TypeOrmModule.forFeature([User, ApiKey])],
  providers: [AuthRepository, UserModes],
  exports: [AuthRepository, UserModes],
})
export class AuthCoreModule {}
