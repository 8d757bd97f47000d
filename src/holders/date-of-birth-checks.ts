import { Injectable } from '@nestjs/common';
import type { NameSearch } from '@lvs/register';
import { AppConfig } from '../config/app-config';
import { QuotaService } from '../quota/quota.service';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { admitDatesOfBirth } from './date-of-birth-checks.script';
import { HolderDataProtection } from '../secrets/holder-data';
import { searchedPersonText } from './name-search-query';

// Longer than any billing month: a month's set of dates goes some days after the month.
const CHECKS_TTL_SECONDS = 40 * 86400;

interface DateCheck {
  /** the set of date digests it counts against */
  key: string;
  digest: string;
}

/**
 * Bounds the dates of birth one user may have the register confirm for one licence number in a month
 * (HOLDER_DATE_CHECKS_PER_NUMBER), across verify-holder, rosters and the console, and likewise for one person's
 * names in name searches: neither is a way to find someone's date of birth by trying them all. Dates and names are
 * counted by their keyed digest, never in clear. The checks of one event-loop turn run in one script call, as verify's
 * claims do: each verify-holder with a date makes one, and a command each cost as much as the check.
 */
@Injectable()
export class DateOfBirthChecks {
  private readonly max: number;
  private readonly checks = perTurnLoader<DateCheck, 0 | 1>((checks) => this.runChecks(checks));

  constructor(
    private readonly redis: RedisStore,
    private readonly quota: QuotaService,
    private readonly holderData: HolderDataProtection,
    config: AppConfig,
  ) {
    this.max = config.get('HOLDER_DATE_CHECKS_PER_NUMBER');
  }

  /** Whether this date may be checked for the number now; a date checked before this month always may. */
  admit(userId: string, licenceNumber: string, dateOfBirth: string): Promise<boolean> {
    return this.admitIn(this.redis.key('dob-checks', `{u${userId}}`, this.quota.currentPeriod(), licenceNumber), dateOfBirth);
  }

  /**
   * Whether a name search may carry this date for these names now: the same bound, keyed by the person's
   * normalised surname and first name (other filters of the search do not make a new person).
   */
  admitForNames(userId: string, names: NameSearch, dateOfBirth: string): Promise<boolean> {
    const person = this.holderData.digest(searchedPersonText(names));
    return this.admitIn(this.redis.key('dob-searches', `{u${userId}}`, this.quota.currentPeriod(), person), dateOfBirth);
  }

  private async admitIn(key: string, dateOfBirth: string): Promise<boolean> {
    return (await this.checks.load({ key, digest: this.holderData.digest(dateOfBirth) })) === 1;
  }

  private runChecks(checks: readonly DateCheck[]): Promise<(0 | 1 | Error)[]> {
    return admitDatesOfBirth.run(
      this.redis.client,
      checks.map((check) => check.key),
      [this.max, CHECKS_TTL_SECONDS, ...checks.map((check) => check.digest)],
    );
  }
}
