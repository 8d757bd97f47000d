import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { clientGroup } from '../rate-limit/client-group';
import { RedisStore } from '../redis/redis.module';
import { countAuthAttempt, forgiveAuthAttempt } from '../redis/auth-failures.script';
import { normaliseEmail } from './email-address';
import { signInWaitSeconds } from './sign-in-wait';

/** One sign-in attempt: who may be signing in (`scope`: members, operators…), from where, as whom. */
export interface SignInAttempt {
  scope: string;
  address: string;
  email: string;
}

/**
 * Failed sign-ins with a password, counted in Redis per client address (an IPv6 client by its /64) and per e-mail
 * address, each in a minute from its first failure, for every API process. Each attempt is counted before its
 * password is checked, in the same step as the comparison, so simultaneous attempts each take their own place and
 * no more than the limit reach a password check; a sign-in that succeeds is then forgiven. A guesser spread over
 * many addresses still meets the e-mail address's limit, and one address trying many e-mail addresses meets its own.
 */
@Injectable()
export class SignInLimiter {
  private readonly perAddress: number;
  private readonly perEmail: number;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.perAddress = config.get('SIGN_IN_FAILURES_PER_ADDRESS');
    this.perEmail = config.get('SIGN_IN_FAILURES_PER_EMAIL');
  }

  /** Counts the attempt, then answers whole seconds to wait; 0 when it may go on to the password check. */
  async count(attempt: SignInAttempt): Promise<number> {
    const [addressKey, emailKey] = this.keys(attempt);
    const [addressWait, emailWait] = await Promise.all([
      countAuthAttempt.run(this.redis.client, [addressKey], [this.perAddress]),
      countAuthAttempt.run(this.redis.client, [emailKey], [this.perEmail]),
    ]);
    return signInWaitSeconds(addressWait, emailWait);
  }

  /** Takes back the attempt `count` counted, once it signed in. */
  async forgive(attempt: SignInAttempt): Promise<void> {
    await Promise.all(this.keys(attempt).map((key) => forgiveAuthAttempt.run(this.redis.client, [key], [])));
  }

  /** Each counter in a hash slot of its own (a cluster routes it alone); the e-mail address only as a hash. */
  private keys({ scope, address, email }: SignInAttempt): [string, string] {
    const emailHash = createHash('sha256').update(normaliseEmail(email)).digest('base64url').slice(0, 22);
    return [this.redis.key('sign-in-failures', scope, `{a${clientGroup(address)}}`), this.redis.key('sign-in-failures', scope, `{e${emailHash}}`)];
  }
}
