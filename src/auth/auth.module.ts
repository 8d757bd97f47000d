import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKey } from './api-key.entity';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { KeyChanges } from './key-changes';
import { User } from './user.entity';

@Module({
  imports: [TypeOrmModule.forFeature([User, ApiKey]), RateLimitModule],
  providers: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard, KeyChanges],
  exports: [ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard],
})
export class AuthModule {}
