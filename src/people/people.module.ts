import { Module } from '@nestjs/common';
import { countAuthAttempt, forgiveAuthAttempt } from '../redis/auth-failures.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';
import { SignInLimiter } from './sign-in-limiter';

/**
 * What every kind of person who signs in shares (members of a partner, the service's operators): the sign-in
 * limiter here; passwords, TOTP, recovery codes and invitation tokens are pure functions beside it.
 */
@Module({
  imports: [RedisScriptsModule.forFeature([countAuthAttempt, forgiveAuthAttempt])],
  providers: [SignInLimiter],
  exports: [SignInLimiter],
})
export class PeopleModule {}
