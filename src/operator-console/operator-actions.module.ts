import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BatchRepository } from '../batches/batch.repository';
import { EventsService } from '../events/events.service';
import { EvidenceRepository } from '../verification-records/evidence.repository';
import { MembersCoreModule } from '../members/members-core.module';
import { QuotaRepository } from '../quota/quota.repository';
import { WatchlistRepository } from '../watchlist/watchlist.repository';
import { WebhookRepository } from '../webhooks/webhook.repository';
import { OperatorActions } from './operator-actions.service';
import { OperatorLog } from './operator-log';
import { OperatorRoster } from './operator-roster';
import { UserDeletion } from './user-deletion';

/**
 * The operator's actions on partners and on operators (OperatorRoster), and the operators' log, without HTTP: the admin command and the operator console
 * both import it. The other modules' repositories serve the deletion their own tables; they are provided here alone,
 * because the feature modules would bring queues and processors that neither the command nor a deletion runs.
 */
const FEATURE_REPOSITORIES = [BatchRepository, WatchlistRepository, WebhookRepository, EventsService, QuotaRepository, EvidenceRepository];
const OPERATOR_ACTIONS = [OperatorActions, OperatorLog, OperatorRoster, UserDeletion];

@Module({
  imports: [AuthModule, MembersCoreModule],
  providers: [...OPERATOR_ACTIONS, ...FEATURE_REPOSITORIES],
  // The feature repositories too, for the admin command's other subcommands (reseals): one instance in its graph.
  exports: [...OPERATOR_ACTIONS, ...FEATURE_REPOSITORIES],
})
export class OperatorActionsModule {}
