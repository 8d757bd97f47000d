import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { QuotaService } from '../quota/quota.service';
import { recheckClaimLimit } from './recheck-pace';
import { TICK_INTERVAL_MS } from './recheck.queue';
import { UNWATCHED_STATE_RETENTION_DAYS } from './watch-entry-view';
import { WatchlistRepository } from './watchlist.repository';

/** Each tick's claim of the numbers due for a re-check, and the deletions that are due with it. */
@Injectable()
export class DueNumbers {
  private readonly cycleSeconds: number;

  constructor(
    private readonly repository: WatchlistRepository,
    private readonly events: EventsService,
    private readonly quota: QuotaService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.cycleSeconds = config.get('WATCH_RECHECK_SECONDS');
  }

  /**
   * Takes the numbers now due, at the pace of recheckClaimLimit and with the users taking turns, and moves
   * them a cycle ahead (a lease: a re-check that dies is tried again a cycle later). The re-check itself sets the
   * real next time (nextCheckAt) once the register has answered. Only numbers that a served user
   * watches are due: a disabled user's watching asks the register nothing, and its numbers, left due,
   * are claimed at the first tick after the user is enabled again.
   */
  async claim(): Promise<string[]> {
    const now = this.clock.now();
    // Before anything else: data is deleted on time whether or not anything is watched.
    await this.deleteExpired(now);
    const watched = await this.repository.watchedNumbers();
    if (watched === 0) return [];
    const limit = recheckClaimLimit({
      watchedNumbers: watched,
      cycleSeconds: this.cycleSeconds,
      tickMs: TICK_INTERVAL_MS,
      registerPerSecond: this.config.get('REGISTER_MAX_PER_SECOND'),
      registerShare: this.config.get('WATCH_MAX_REGISTER_SHARE'),
    });
    return this.repository.claimDue(now, limit, this.cycleSeconds);
  }

  /**
   * Events past their retention, the states (holder names) of numbers nobody has watched for as long, and the
   * per-number ledger of periods past LEDGER_RETENTION_MONTHS.
   */
  private async deleteExpired(now: Date): Promise<void> {
    await this.events.deleteExpired(now);
    await this.quota.deleteExpiredLedger();
    await this.repository.deleteUnwatchedStates(now, UNWATCHED_STATE_RETENTION_DAYS);
  }
}
