import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import { randomUUID } from 'node:crypto';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { isDatabaseUnavailable } from '../errors/dependency-unavailable';
import { ApiError } from '../errors/api-error';
import { batchQuotaMessage } from '../errors/error-codes';
import { RedisStore } from '../redis/redis.module';
import { markCharged } from './charged-markers.script';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import { billingPeriod, recentPeriods, remainingQuota } from './billing-period';
import { QuotaHistoryDto } from './dto/quota-history.dto';
import { QuotaUsageDto } from './dto/quota-usage.dto';
import { ChargeOutcome, ChargeRequest, QuotaRepository } from './quota.repository';

/** A charge that happened: what a refund needs to undo exactly it. */
export interface Charge {
  userId: string;
  period: string;
  licenceNumber: string;
  /** false when the number was already counted this period, so there is nothing to refund */
  isNew: boolean;
  /** The id its ledger row carries: a refund removes that row only while it is still this charge's. */
  chargeId: string;
}

interface UsageKey {
  userId: string;
  period: string;
}

/**
 * The calls of one event-loop turn run together at its end, so that requests arriving together share one round
 * trip to PostgreSQL or Redis instead of one each. Nothing is cached between turns; 500 calls fit in one statement.
 */
const ONE_TURN = { cache: false, batchScheduleFn: (runBatch: () => void) => setImmediate(runBatch), maxBatchSize: 500 };

/** A failure that every call of a turn would meet alone too: running each again would only add load. */
function isOutage(error: unknown): boolean {
  return (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') || isDatabaseUnavailable(error) || isRedisUnavailable(error);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

// Outlives the longest month; the period is part of the key, so a new month never sees it.
/** The most ledger rows one retention run deletes: the worker runs it every tick, so a backlog goes in steps. */
const LEDGER_DELETIONS_PER_RUN = 10_000;

const CHARGED_MARKER_TTL_SECONDS = 32 * 24 * 3600;

/**
 * PostgreSQL is the ledger of record. Redis holds a marker per user, period and number that
 * PostgreSQL has charged, so that repeats skip the database: it is written only after the charge
 * is committed and removed before a refund, and a missing one only costs a charge statement,
 * which answers "repeat" without charging again.
 */
@Injectable()
export class QuotaService {
  private readonly timeZone: string;
  private readonly ledgerRetentionMonths: number;
  private readonly chargeTimeoutMs: number;
  /** Usage reads of one turn share a query: the round trip was most of the endpoint's cost. */
  private readonly usageReads = new DataLoader<UsageKey, number>(
    (keys) => this.togetherOrEachAlone(keys, (some) => this.repository.usages(some)),
    ONE_TURN,
  );
  /**
   * Single charges of one turn, of any users and many per user, commit together in one statement: a commit a turn
   * instead of one a charge. It fails or commits as a whole, so a fault never charges part of it; when it failed,
   * each charge runs again alone (togetherOrEachAlone), so that only the faulty one fails.
   */
  private readonly singleCharges = new DataLoader<ChargeRequest, ChargeOutcome>(
    (requests) => this.togetherOrEachAlone(requests, (some) => this.chargeAll(some)),
    ONE_TURN,
  );
  private readonly chargedMarks = new DataLoader<Charge, undefined>(
    (charges) => this.togetherOrEachAlone(charges, (some) => this.markAll(some)),
    ONE_TURN,
  );

  constructor(
    private readonly repository: QuotaRepository,
    private readonly redis: RedisStore,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.timeZone = config.get('QUOTA_TIME_ZONE');
    this.ledgerRetentionMonths = config.get('LEDGER_RETENTION_MONTHS');
    this.chargeTimeoutMs = config.get('DATABASE_CHARGE_TIMEOUT_MS');
  }

  currentPeriod(): string {
    return billingPeriod(this.clock.now(), this.timeZone);
  }

  /**
   * Deletes the per-number ledger (quota_charges) of the periods before the last LEDGER_RETENTION_MONTHS (the
   * current one counts), at most LEDGER_DELETIONS_PER_RUN rows a run, so that a run stays short; the monthly
   * totals (quota_usage) stay. Returns how many rows it deleted.
   */
  async deleteExpiredLedger(): Promise<number> {
    const [oldestKept] = recentPeriods(this.currentPeriod(), this.ledgerRetentionMonths);
    return this.repository.deleteLedgerBefore(oldestKept, LEDGER_DELETIONS_PER_RUN);
  }

  /** The Redis hash of a user's numbers charged in a period (field: the number). */
  chargedMarkersKey(userId: string, period: string): string {
    return this.redis.key('charged', period, userId);
  }

  /**
   * Counts a licence number once per user and period, in one atomic statement (see the
   * quota_charge_all migration). A repeat is free and never refused; a new number over the
   * limit throws QUOTA_EXCEEDED and leaves no trace. An unreachable database is
   * SERVICE_UNAVAILABLE: nothing was charged, and the client may try again.
   */
  async chargeOnce(user: Pick<AuthenticatedUser, 'userId' | 'monthlyQuota'>, licenceNumber: string, planned?: Charge): Promise<Charge> {
    const charge = await this.tryChargeOnce(user.userId, user.monthlyQuota, licenceNumber, planned);
    if (!charge) throw new ApiError('QUOTA_EXCEEDED');
    return charge;
  }

  /**
   * The charge a chargeOnce now would make, with its id, for callers that record what to refund before charging
   * (see LookupPayers.intend).
   */
  plan(userId: string, licenceNumber: string): Charge {
    return { userId, period: this.currentPeriod(), licenceNumber, isNew: true, chargeId: randomUUID() };
  }

  /** chargeOnce for callers without a request (watchlist re-checks): null when the quota has no room. */
  async tryChargeOnce(
    userId: string,
    monthlyQuota: number | null,
    licenceNumber: string,
    { period, chargeId } = this.plan(userId, licenceNumber),
  ): Promise<Charge | null> {
    const outcome = await this.singleCharges.load({ userId, period, licenceNumber, monthlyQuota, chargeId });
    if (outcome === 'refused') return null;
    return { userId, period, licenceNumber, isNew: outcome === 'charged', chargeId };
  }

  /**
   * Charges a batch's distinct licence numbers all or nothing, in one atomic statement (see the
   * quota_charge_many migration): numbers already counted this period are free; when the new ones
   * do not all fit, nothing is charged and QUOTA_EXCEEDED says how many were needed and remain.
   * Returns the new charges only, each refundable on its own.
   */
  async chargeMany(user: AuthenticatedUser, licenceNumbers: string[]): Promise<Charge[]> {
    const period = this.currentPeriod();
    // One id for the rows of one call: with the number, it still names each row's charge.
    const chargeId = randomUUID();
    const { charged, needed, remaining } = await this.charge((timeoutMs) =>
      this.repository.chargeMany(user.userId, period, licenceNumbers, user.monthlyQuota, chargeId, timeoutMs),
    );
    if (charged.length < needed) throw new ApiError('QUOTA_EXCEEDED', batchQuotaMessage(needed, remaining ?? 0));
    return charged.map((licenceNumber) => ({ userId: user.userId, period, licenceNumber, isNew: true, chargeId }));
  }

  private chargeAll(requests: readonly ChargeRequest[]): Promise<ChargeOutcome[]> {
    return this.charge((timeoutMs) => this.repository.chargeAll(requests, timeoutMs));
  }

  /**
   * Runs `run` for the calls of one turn together. When that fails other than by an outage, one call may be at
   * fault (a user id that breaks a constraint): each then runs alone, so that only its own request fails. Running
   * again is safe: a failed statement committed nothing, and the marker script only sets what it set already.
   */
  private async togetherOrEachAlone<Key, Value>(
    keys: readonly Key[],
    run: (keys: readonly Key[]) => Promise<readonly Value[]>,
  ): Promise<(Value | Error)[]> {
    try {
      return [...(await run(keys))];
    } catch (error) {
      if (keys.length === 1 || isOutage(error)) return keys.map(() => asError(error));
      return Promise.all(keys.map((key) => run([key]).then(([value]) => value, asError)));
    }
  }

  /**
   * Runs a charging statement within its deadline; an unreachable database, or one that missed the deadline,
   * is SERVICE_UNAVAILABLE, with nothing charged then or later.
   */
  private charge<Result>(statement: (timeoutMs: number) => Promise<Result>): Promise<Result> {
    return statement(this.chargeTimeoutMs).catch((error: unknown) => {
      throw isDatabaseUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
    });
  }

  /** Records that PostgreSQL has committed this charge and that no refund is coming for it. */
  async markCharged(charge: Charge): Promise<void> {
    await this.chargedMarks.load(charge);
  }

  /** The markers of one turn in one script call: one command, and every key written keeps its TTL. */
  private async markAll(charges: readonly Charge[]): Promise<undefined[]> {
    await markCharged.run(
      this.redis.client,
      charges.map((charge) => this.chargedMarkersKey(charge.userId, charge.period)),
      [CHARGED_MARKER_TTL_SECONDS, ...charges.map((charge) => charge.licenceNumber)],
    );
    return charges.map(() => undefined);
  }

  /**
   * Undoes a new charge, atomically; a second refund of the same charge changes nothing, and neither does a refund of a
   * charge whose row was refunded and charged again since (the row then carries the newer charge's id).
   */
  async refund(charge: Charge): Promise<void> {
    if (!charge.isNew) return;
    // The marker goes first: a marker without its charge would make the number free this month.
    // With Redis unreachable the charge still goes (a client must not pay for a 503): a marker is
    // only written for a final answer, which a charge being refunded never had.
    await this.redis.client.hdel(this.chargedMarkersKey(charge.userId, charge.period), charge.licenceNumber).catch((error: unknown) => {
      if (!isRedisUnavailable(error)) throw error;
    });
    await this.repository.refund(charge.userId, charge.period, charge.licenceNumber, charge.chargeId ?? null);
  }

  /** Runs `work`, which the charges were made for; when it fails, they are refunded before the failure goes on. */
  async refundIfFails<T>(charges: readonly Charge[], work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      for (const charge of charges) await this.refund(charge);
      throw error;
    }
  }

  async usage(user: AuthenticatedUser): Promise<QuotaUsageDto> {
    const period = this.currentPeriod();
    const used = await this.usageReads.load({ userId: user.userId, period });
    return { period, used, quota: user.monthlyQuota, remaining: remainingQuota(user.monthlyQuota, used) };
  }

  /** The user's usage in each of the last `months` periods, oldest first; a period without charges used none. */
  async history(user: AuthenticatedUser, months: number): Promise<QuotaHistoryDto> {
    const periods = recentPeriods(this.currentPeriod(), months);
    const usedIn = await this.repository.usedIn(user.userId, periods);
    return { periods: periods.map((period) => ({ period, used: usedIn.get(period) ?? 0, quota: user.monthlyQuota })) };
  }
}
