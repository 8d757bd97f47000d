import { Module } from '@nestjs/common';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { UserRateLimiter } from './user-rate-limiter';
import { authBlockedFor, countAuthAttempt, forgiveAuthAttempt } from '../redis/auth-failures.script';
import { takeRateTokens } from './rate-tokens.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';

/** The limits the API key guard applies: failed authentications per address, requests per user. */
@Module({
  imports: [RedisScriptsModule.forFeature([authBlockedFor, countAuthAttempt, forgiveAuthAttempt, takeRateTokens])],
  providers: [AuthFailureLimiter, UserRateLimiter],
  exports: [AuthFailureLimiter, UserRateLimiter],
})
export class RateLimitModule {}
