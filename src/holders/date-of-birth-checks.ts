import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QuotaService } from '../quota/quota.service';
import { RedisStore } from '../redis/redis.module';
import { admitDateOfBirth } from '../redis/scripts/date-of-birth-checks';
import { HolderDataProtection } from '../secrets/holder-data';

// Longer than any billing month: a month's set of dates goes some days after the month.
const CHECKS_TTL_SECONDS = 40 * 86400;

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
  }

  /** Whether this date may be checked for the number now; a date checked before this month always may. */
  async admit(userId: string, licenceNumber: string, dateOfBirth: string): Promise<boolean> {
    const key = this.redis.key('dob-checks', `{u${userId}}`, this.quota.currentPeriod(), licenceNumber);
    return (await admitDateOfBirth.run(this.redis.client, [key], [this.holderData.digest(dateOfBirth), this.max, CHECKS_TTL_SECONDS])) === 1;
  }
}
