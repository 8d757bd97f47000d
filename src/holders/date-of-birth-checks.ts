import { Injectable } from '@nestjs/common';
import type { Result } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { QuotaService } from '../quota/quota.service';
import { RedisStore } from '../redis/redis.module';
import { HolderDataProtection } from '../secrets/holder-data';

// Longer than any billing month: a month's set of dates goes some days after the month.
const CHECKS_TTL_SECONDS = 40 * 86400;

/**
 * Admits a date of birth for a number: one already checked this month is admitted again and does not count; a new
 * one is admitted while fewer than ARGV[2] dates are. 1 when admitted, else 0.
 * KEYS: the set of date digests of one user, number and month; ARGV: digest, max, ttl.
 */
const ADMIT_DATE_OF_BIRTH = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    admitDateOfBirth(dates: string, digest: string, max: number, ttlSeconds: number): Result<number, Context>;
  }
}

/**
 * Bounds the dates of birth one user may have the register confirm for one licence number in a month
 * (HOLDER_DATE_CHECKS_PER_NUMBER), across verify-holder, rosters and the console: a holder check is not a way to
 * find someone's date of birth by trying them all. Dates are counted by their keyed digest, never in clear.
 */
@Injectable()
export class DateOfBirthChecks {
  private readonly max: number;

  constructor(
    private readonly redis: RedisStore,
    private readonly quota: QuotaService,
    private readonly holderData: HolderDataProtection,
    config: AppConfig,
  ) {
    this.max = config.get('HOLDER_DATE_CHECKS_PER_NUMBER');
    redis.client.defineCommand('admitDateOfBirth', { numberOfKeys: 1, lua: ADMIT_DATE_OF_BIRTH });
  }

  /** Whether this date may be checked for the number now; a date checked before this month always may. */
  async admit(userId: string, licenceNumber: string, dateOfBirth: string): Promise<boolean> {
    const key = this.redis.key('dob-checks', `{u${userId}}`, this.quota.currentPeriod(), licenceNumber);
    return (await this.redis.client.admitDateOfBirth(key, this.holderData.digest(dateOfBirth), this.max, CHECKS_TTL_SECONDS)) === 1;
  }
}
