import { Injectable } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { ActivityLog } from '../activity/activity-log';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { usageChart } from '../console/console-view';
import { RefusalTally } from '../auth/refusal-tally';
import { readWorkerTallies } from '../health/worker-heartbeat';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from '../lookups/lookup-jobs';
import { LookupService } from '../lookups/lookup.service';
import { Metrics } from '../metrics/metrics';
import { bucketsOf, histogramQuantile, sumTallies } from '../metrics/register-tally';
import { RedisStore } from '../redis/redis.module';
import { billingPeriod, recentPeriods } from '../quota/billing-period';
import type { NewestFirstCursor } from '../validation/paging';
import { WEBHOOK_DELIVERY_QUEUE } from '../webhooks/delivery.queue';
import { NewPartner, OperatorActions, OperatorRequest } from './operator-actions.service';
import { OperatorLog } from './operator-log';
import { operatorLogPage } from './operator-log-page';
import { PartnerFigures } from './partner-figures.repository';
import { DirectorySort, nearPlan, partnerStatus, planShare, writeOffsetCursor } from './partner-standing';
import { milliseconds, partnerShares, percent, registerSeries } from './register-figures';

const DAY_MS = 86_400_000;
/** The period of the partners' shares of the register: who is using it now. */
const SHARE_SECONDS = 3600;
/** The partners the Register page lists, most first, and the breaker changes it shows. */
const SHARES_SHOWN = 20;
const BREAKER_CHANGES_SHOWN = 20;
const QUEUES = [REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE, WEBHOOK_DELIVERY_QUEUE];

/** A setting an operator changes on a partner's page, and how a blank field reads (unlimited, or the default). */
export type PartnerSetting = 'quota' | 'rate-limit' | 'watch-limit' | 'live-lookup-limit';

/**
 * The operator console's pages over the operator's actions and the figures the service already keeps: the partner
 * list and page (PartnerFigures), the Register page (the live workers' tallies of their /metrics, the breaker's state and
 * history, the verification records of the last hour, and this process's registry), the queues (BullMQ's own counts),
 * the refusals per day (RefusalTally, which the error filter counts) and the operators' log.
 */
@Injectable()
export class OperatorConsoleService {
  private readonly timeZone: string;
  private readonly registerPerSecond: number;
  private readonly heartbeatWindowMs: number;

  constructor(
    private readonly figures: PartnerFigures,
    private readonly actions: OperatorActions,
    private readonly log: OperatorLog,
    private readonly activity: ActivityLog,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
    private readonly refusals: RefusalTally,
    private readonly lookups: LookupService,
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.timeZone = config.get('QUOTA_TIME_ZONE');
    this.registerPerSecond = config.get('REGISTER_MAX_PER_SECOND');
    this.heartbeatWindowMs = config.get('WORKER_HEARTBEAT_TIMEOUT_MS');
  }

  async partners(search: string | null, sort: DirectorySort, limit: number, offset: number) {
    const rows = await this.figures.directory({ search, sort, period: billingPeriod(this.clock.now(), this.timeZone), page: { limit, after: offset } });
    const partners = rows.slice(0, limit).map((row) => {
      const share = planShare(row.used, row.quota);
      return { ...row, share, near: nearPlan(share), status: partnerStatus(row.disabled, row.liveKeys) };
    });
    return { partners, search: search ?? '', sort, nextCursor: rows.length > limit ? writeOffsetCursor(offset + limit) : null };
  }

  /** A partner's page; null when there is no such partner. */
  async partner(userId: string) {
    const partner = await this.figures.partner(userId);
    if (!partner) return null;
    const now = this.clock.now();
    const periods = recentPeriods(billingPeriod(now, this.timeZone), 12);
    const monthly = new Map((await this.figures.usagePerMonth(userId, periods)).map((row) => [row.period, row.used]));
    const months = periods.map((period) => ({ period, used: monthly.get(period) ?? 0 }));
    const daily = new Map((await this.figures.usagePerDay(userId, new Date(now.getTime() - 89 * DAY_MS))).map((row) => [row.day, row.used]));
    const days = Array.from({ length: 90 }, (_, index) => new Date(now.getTime() - (89 - index) * DAY_MS).toISOString().slice(0, 10)).map((day) => ({
      period: day,
      used: daily.get(day) ?? 0,
    }));
    const activity = await this.activity.page(userId, { action: null, actorType: null, actorId: null, from: null, to: null }, { limit: 50, after: null });
    return {
      partner,
      months,
      monthChart: usageChart(months),
      days,
      dayChart: usageChart(days),
      answers: await this.figures.answersByOutcome(userId, new Date(now.getTime() - 90 * DAY_MS)),
      refusals: await this.refusals.recent(userId, now),
      keys: await this.figures.keys(userId),
      members: await this.figures.members(userId),
      endpoints: await this.figures.endpoints(userId),
      batches: await this.figures.runningBatches(userId),
      activity: activity.slice(0, 50),
      operatorLog: (await this.log.page(userId, { limit: 20, after: null })).slice(0, 20),
    };
  }

  /** Sets a quota or a limit; a blank value: unlimited (quota) or the default (limits). False when there is no such partner. */
  changeSetting(request: OperatorRequest, userId: string, setting: PartnerSetting, value: number | null): Promise<boolean> {
    if (setting === 'quota') return this.actions.setQuota(request, userId, value);
    if (setting === 'rate-limit') return this.actions.setRateLimit(request, userId, value);
    if (setting === 'live-lookup-limit') return this.actions.setLiveLookupLimit(request, userId, value);
    return this.actions.setWatchLimit(request, userId, value);
  }

  /** A new partner with its first owner's invitation: its id and the link (shown once), or the refusal's words. */
  createPartner(request: OperatorRequest, partner: NewPartner) {
    return this.actions.createPartner(request, partner);
  }

  /** Clears a member's second factor and ends their sessions; false when the partner has no such member who joined. */
  async resetMemberFactor(request: OperatorRequest, userId: string, memberId: string): Promise<boolean> {
    return (await this.actions.resetMemberFactor(request, userId, { memberId })) !== null;
  }

  async setDisabled(request: OperatorRequest, userId: string, disabled: boolean): Promise<boolean> {
    return (await this.actions.setDisabled(request, userId, disabled)) !== null;
  }

  issueKey(request: OperatorRequest, userId: string, name: string) {
    return this.actions.issueKey(request, { name, userId, quota: null, expiresAt: null });
  }

  revokeKey(request: OperatorRequest, keyId: string): Promise<boolean> {
    return this.actions.revokeKey(request, keyId);
  }

  /** Deletes the partner when `typedName` is its name exactly: 'deleted', 'mismatch', or 'unknown' for no such partner. */
  async deletePartner(request: OperatorRequest, userId: string, typedName: string): Promise<'deleted' | 'mismatch' | 'unknown'> {
    const partner = await this.figures.partner(userId);
    if (!partner) return 'unknown';
    if (partner.name !== typedName) return 'mismatch';
    return (await this.actions.deletePartner(request, userId)) === null ? 'unknown' : 'deleted';
  }

  /**
   * The register now: the breaker and its changes, the live workers' lookups summed (by outcome, attempts per second
   * against REGISTER_MAX_PER_SECOND, p50 and p99 from their duration buckets, pages of a new shape), the oldest waiting
   * lookup, each partner's share of the last hour, and this process's own series.
   */
  async register() {
    const now = this.clock.now();
    const workers = await readWorkerTallies(this.redis, this.heartbeatWindowMs);
    const tally = sumTallies(workers);
    const buckets = bucketsOf(tally.buckets);
    const oldestWaitingSince = await this.lookups.oldestWaitingSince();
    const since = new Date(now.getTime() - SHARE_SECONDS * 1000);
    const shares = partnerShares(await this.figures.registerAnswersByPartner(since, SHARES_SHOWN), this.registerPerSecond, SHARE_SECONDS);
    const quantile = (q: number) => {
      const seconds = histogramQuantile(q, buckets);
      return { seconds, shown: milliseconds(seconds) };
    };
    return {
      phase: await this.lookups.registerPhase(),
      breakerChanges: (await this.lookups.breakerHistory(BREAKER_CHANGES_SHOWN)).map((change) => ({ ...change, at: new Date(change.at).toISOString() })),
      workers: workers.length,
      perSecond: workers.reduce((sum, worker) => sum + worker.perSecond, 0),
      maxPerSecond: this.registerPerSecond,
      p50: quantile(0.5),
      p99: quantile(0.99),
      outcomes: Object.entries(tally.lookups)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([outcome, count]) => ({ outcome, count })),
      newPageShapes: tally.newPageShapes,
      oldestWaitingSeconds: oldestWaitingSince === null ? null : Math.max(0, Math.round((now.getTime() - oldestWaitingSince) / 1000)),
      shares: shares.map((share) => ({ ...share, ofAnswersShown: percent(share.ofAnswers), ofBudgetShown: percent(share.ofBudget) })),
      budget: this.registerPerSecond * SHARE_SECONDS,
      series: registerSeries(await this.metrics.registry.getMetricsAsJSON()),
    };
  }

  /** Each queue the API produces to: its counts by state and its oldest waiting job's age. */
  async queues() {
    const now = this.clock.now().getTime();
    const queues = await Promise.all(
      QUEUES.map(async (name) => {
        const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
        const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
        const [oldest] = await queue.getJobs(['waiting', 'prioritized'], 0, 0, true);
        return { name, counts, oldestWaitingSeconds: oldest ? Math.max(0, Math.round((now - oldest.timestamp) / 1000)) : null };
      }),
    );
    return { queues };
  }

  /** A page of the operators' log, newest first: 100 entries after the cursor (null: the newest). */
  async operatorActivity(after: NewestFirstCursor | null) {
    return operatorLogPage(await this.log.page(null, { limit: 100, after }), 100);
  }
}
