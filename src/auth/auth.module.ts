import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { KeyChanges } from './key-changes';
import { KeyUseRecorder } from './key-use-recorder';
import { KeysController } from './keys.controller';
import { User } from './user.entity';

@Module({
  imports: [TypeOrmModule.forFeature([User, ApiKey])],
  controllers: [KeysController],
  providers: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard, KeyChanges, KeyUseRecorder],
  exports: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard],
})
export class AuthModule {}
