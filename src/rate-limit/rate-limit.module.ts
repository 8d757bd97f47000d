import { Module } from '@nestjs/common';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { UserRateLimiter } from './user-rate-limiter';

/** The limits the API key guard applies: failed authentications per address, requests per user. */
@Module({
  providers: [AuthFailureLimiter, UserRateLimiter],
  exports: [AuthFailureLimiter, UserRateLimiter],
})
export class RateLimitModule {}
