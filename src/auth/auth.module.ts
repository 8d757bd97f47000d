import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityModule } from '../activity/activity.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyBodyGate } from '../http/body-gates';
import { ActivityController } from './activity.controller';
import { ApiKeyAuthenticatorBodyGate } from './api-key-body-gate';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKey } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { AuthRepository } from './auth.repository';
import { KeyChanges } from './key-changes';
import { KeyUseRecorder } from './key-use-recorder';
import { KeysController } from './keys.controller';
import { UserModes } from './user-modes';
import { User } from './user.entity';

@Module({
  imports: [RateLimitModule, ActivityModule, TypeOrmModule.forFeature([User, ApiKey])],
  controllers: [KeysController, ActivityController],
  providers: [
    ApiKeysService,
    ApiKeyAuthenticator,
    ApiKeyGuard,
    AuthRepository,
    KeyChanges,
    KeyUseRecorder,
    UserModes,
    { provide: ApiKeyBodyGate, useClass: ApiKeyAuthenticatorBodyGate },
  ],
  // Guards are built in the module that uses them: it needs the guard's dependencies too.
  exports: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard, AuthRepository, KeyChanges, RateLimitModule, UserModes, ActivityModule],
})
export class AuthModule {}
