import { Module } from '@nestjs/common';
import { ActivityModule } from '../activity/activity.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyBodyGate } from '../http/body-gates';
import { ActivityController } from './activity.controller';
import { ApiKeyAuthenticatorBodyGate } from './api-key-body-gate';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { AuthCoreModule } from './auth-core.module';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { KeyChanges } from './key-changes';
import { KeyUseRecorder } from './key-use-recorder';
import { KeysController } from './keys.controller';

@Module({
  imports: [AuthCoreModule, RateLimitModule, ActivityModule],
  controllers: [KeysController, ActivityController],
  providers: [
    ApiKeysService,
    ApiKeyAuthenticator,
    ApiKeyGuard,
    KeyChanges,
    KeyUseRecorder,
    { provide: ApiKeyBodyGate, useClass: ApiKeyAuthenticatorBodyGate },
  ],
  // Guards are built in the module that uses them: it needs the guard's dependencies too.
  exports: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard, AuthCoreModule, KeyChanges, RateLimitModule, ActivityModule],
})
export class AuthModule {}
