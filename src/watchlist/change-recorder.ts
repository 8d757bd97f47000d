import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { EventsService, NewEvent } from '../events/events.service';
import type { FinalResult } from '../lookups/lookup-outcome';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { changeEvents } from './change-events';
import { detectChanges } from './detect-changes';
import { daysUntil, dueExpiryWarning } from './expiry-warnings';
import { nextCheckAt } from './recheck-pace';
import type { SuccessorJobData } from './recheck.queue';
import { stoppedBeingActive } from './successor';
import { Watcher, WatchlistRepository } from './watchlist.repository';

/** Stores a re-check's answer and turns what changed, and an expiry coming near, into events for the watchers. */
@Injectable()
export class ChangeRecorder {
  private readonly cycleSeconds: number;

  constructor(
    private readonly repository: WatchlistRepository,
    private readonly events: EventsService,
    private readonly dispatcher: WebhookDispatcher,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.cycleSeconds = config.get('WATCH_RECHECK_SECONDS');
  }

  /**
   * Compares with the last known answer in the number's world, stores the new one, and records an event per change per watcher. When an
   * Active licence stopped being so, its status events are held back for the successor search, which it returns.
   */
  async record(licenceNumber: string, world: string, current: FinalResult, watchers: Watcher[]): Promise<SuccessorJobData | null> {
    const now = this.clock.now();
    const { stored, followUp } = await this.repository.transaction(async (manager) => {
      const state = await this.repository.lockState(manager, licenceNumber, world);
      const previous = state?.result ?? null;
      const changes = detectChanges(previous, current);
      const previousLicence = previous?.status === 'FOUND' ? previous.licence : null;
      const currentLicence = current.status === 'FOUND' ? current.licence : null;
      // A renewal (a new expiry date) starts the warnings again.
      const sameExpiry = previousLicence?.expiryDate === currentLicence?.expiryDate;
      const daysLeft = currentLicence ? daysUntil(currentLicence.expiryDate, now) : null;
      const expiry = daysLeft === null ? { warnAt: null, sent: [] } : dueExpiryWarning(daysLeft, sameExpiry ? (state?.expiryWarnings ?? []) : []);
      await this.repository.storeState(manager, licenceNumber, world, {
        result: current,
        expiryWarnings: expiry.sent,
        changed: changes.length > 0,
        at: now,
        nextCheckAt: nextCheckAt(now, this.cycleSeconds),
      });
      const followUp: SuccessorJobData | null =
        previousLicence !== null && stoppedBeingActive(previousLicence, current)
          ? {
              licenceNumber,
              world,
              previous: previousLicence,
              current: currentLicence,
              withheld: changes.filter((change) => change.type !== 'licence.details_changed'),
            }
          : null;
      const announced = followUp === null ? changes : changes.filter((change) => change.type === 'licence.details_changed');
      const events: NewEvent[] = watchers.flatMap((watcher) => [
        ...changeEvents(licenceNumber, watcher, announced),
        ...(expiry.warnAt === null
          ? []
          : [
              {
                userId: watcher.userId,
                type: 'licence.expiring' as const,
                data: { licenceNumber, reference: watcher.reference, previous: previousLicence, current: currentLicence, daysLeft },
              },
            ]),
      ]);
      return { stored: await this.events.record(events, now, manager), followUp };
    });
    await this.dispatcher.dispatch(stored);
    return followUp;
  }
}
