import { Module } from '@nestjs/common';
import { countAuthAttempt, forgiveAuthAttempt } from '../redis/auth-failures.script';
import { RedisScriptsModule } from '../redis/redis-scripts.module';
import { PasskeyChallenges } from './passkey-challenges';
import { SignInLimiter } from './sign-in-limiter';

/**
 * What every kind of person who signs in shares (members of a partner, the service's operators): the sign-in
 * limiter and the passkey ceremonies' challenges here; passwords, TOTP, passkeys' checks, recovery codes and
 * invitation tokens are pure functions beside them.
 */
@Module({
  imports: [RedisScriptsModule.forFeature([countAuthAttempt, forgiveAuthAttempt])],
  providers: [SignInLimiter, PasskeyChallenges],
  exports: [SignInLimiter, PasskeyChallenges],
})
export class PeopleModule {}
