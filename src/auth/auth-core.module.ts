import { Module } from '@nestjs/common';
import { AuthRepository } from './auth.repository';

/** Auth without HTTP: the users and keys repository. The API's AuthModule builds on it; the worker imports only this. */
@Module({
  providers: [AuthRepository],
  exports: [AuthRepository],
})
export class AuthCoreModule {}
