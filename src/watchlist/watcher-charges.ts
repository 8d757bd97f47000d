import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { EventsService, NewEvent } from '../events/events.service';
import { QuotaService } from '../quota/quota.service';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import type { WatchState } from './watch-entry-view';
import { Watcher, WatchlistRepository } from './watchlist.repository';

/** What each re-check costs its watchers, and the pauses and resumptions that follow from it. */
@Injectable()
export class WatcherCharges {
  constructor(
    private readonly repository: WatchlistRepository,
    private readonly quota: QuotaService,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
  ) {}

  /**
   * Charges each served watcher for the number in the current period (free after the first time) and
   * pauses or resumes their entries accordingly. Returns the watchers left active. A disabled user is not
   * a watcher here: not charged, its entry's state untouched, and no event of this re-check is its.
   */
  async settle(licenceNumber: string): Promise<Watcher[]> {
    const watchers = await this.repository.watchers(licenceNumber);
    const active: Watcher[] = [];
    const transitions: NewEvent[] = [];
    for (const watcher of watchers) {
      const charged = (await this.quota.tryChargeOnce(watcher.userId, watcher.monthlyQuota, licenceNumber)) !== null;
      if (charged) active.push(watcher);
      const next: WatchState = charged ? 'ACTIVE' : 'PAUSED';
      if (next === watcher.state) continue;
      await this.repository.setWatchState(watcher.userId, licenceNumber, next, charged ? null : 'QUOTA_EXCEEDED');
      transitions.push({
        userId: watcher.userId,
        type: charged ? 'watch.resumed' : 'watch.paused',
        data: { licenceNumber, reference: watcher.reference, reason: charged ? null : 'QUOTA_EXCEEDED' },
      });
    }
    await this.dispatcher.dispatch(await this.events.record(transitions, this.clock.now()));
    return active;
  }
}
