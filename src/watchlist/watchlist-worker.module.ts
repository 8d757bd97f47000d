import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { EventsCoreModule } from '../events/events-core.module';
import { LookupsModule } from '../lookups/lookups.module';
import { SecretsModule } from '../secrets/secrets.module';
import { NameSearchSubjects } from '../holders/name-search-subjects';
import { QuotaCoreModule } from '../quota/quota-core.module';
import { WebhooksCoreModule } from '../webhooks/webhooks-core.module';
import { ChangeRecorder } from './change-recorder';
import { DueNumbers } from './due-numbers';
import { LicenceMonitor } from './licence-monitor';
import { RecheckLookups } from './recheck-lookups';
import { RecheckProcessor } from './recheck.processor';
import { WATCH_RECHECK_QUEUE } from './recheck.queue';
import { SuccessorFollower } from './successor-follower';
import { WatcherCharges } from './watcher-charges';
import { WatchlistRepository } from './watchlist.repository';

/** Worker only: the re-check cycle (its scheduler and processor) and the monitor that turns answers into events. */
@Module({
  imports: [LookupsModule, SecretsModule, QuotaCoreModule, EventsCoreModule, WebhooksCoreModule, BullModule.registerQueue({ name: WATCH_RECHECK_QUEUE })],
  providers: [
    LicenceMonitor,
    DueNumbers,
    WatcherCharges,
    RecheckLookups,
    ChangeRecorder,
    SuccessorFollower,
    WatchlistRepository,
    RecheckProcessor,
    NameSearchSubjects,
  ],
})
export class WatchlistWorkerModule {}
